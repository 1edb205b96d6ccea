/** The lender's side of a deal's conversation with the business. */
import { isoNow, type Deps } from "../deps";
import { messageInsert, messagesOfDeal } from "../../db/deals/messages";
import type { Statement } from "../../db/batch";
import { notificationInsert } from "../../db/hub/client-notifications";
import type { Scope } from "../../domain/identity/caller";
import type { DealMessage } from "../../domain/deals/types";
import { newId } from "../../lib/ids";
import { runBatch } from "../../db/batch";
import { requireDeal } from "./reads";

export async function dealMessages(deps: Deps, scope: Scope, ref: string) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  return messagesOfDeal(db, deal.ref);
}

/**
 * A lender's message to the client; `message.created` fires for the client's
 * replies, not for this. The business is told in the same batch (a test deal
 * has no business behind it).
 */
export async function sendMessage(deps: Deps, scope: Scope, ref: string, body: string) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  const message: DealMessage = { id: newId("msg"), direction: "lender_to_borrower", body, createdAt: isoNow(deps) };
  const statements: Statement[] = [messageInsert(db, deal.ref, message)];
  if (deal.leadId) {
    statements.push(
      notificationInsert(db, { leadId: deal.leadId, environment: deal.environment, kind: "message", dealRef: deal.ref, subject: `New message about ${deal.ref}`, deepLink: `/deals/${deal.ref}/messages` }, message.createdAt),
    );
  }
  await runBatch(db, statements);
  return message;
}
