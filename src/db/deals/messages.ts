/** The messages of a deal's conversation between the lender and the business. */
import { and, asc, eq } from "drizzle-orm";
import type { DealMessage } from "../../domain/deals/types";
import type { Database } from "../client";
import { dealMessages, type DealMessageRow } from "../schema/deals";
import { writeOrder } from "../write-order";

export const toMessage = (r: DealMessageRow): DealMessage => ({ id: r.id, direction: r.direction, body: r.body, subject: r.subject, fromEmail: r.fromEmail, createdAt: r.createdAt });

/**
 * The conversation of one deal, oldest first.
 * Keyed by the deal's ref alone on purpose: a ref is the deal's primary key, and every caller
 * holds it only from a read already scoped to the organisation and environment (the lender's
 * `requireDeal`/`findDeal`, the partner's lead-scoped deals, the hub's lead opened by its link),
 * so the child rows cannot be another account's. Repeating the condition here would need a join
 * (messages and requests carry no organisation column) for no added guarantee.
 */
export async function messagesOfDeal(db: Database, ref: string) {
  return (await db.select().from(dealMessages).where(eq(dealMessages.dealRef, ref)).orderBy(asc(dealMessages.createdAt), asc(writeOrder(dealMessages))).all()).map(toMessage);
}

export const messageInsert = (db: Database, ref: string, message: DealMessage) =>
  db.insert(dealMessages).values({
    id: message.id,
    dealRef: ref,
    direction: message.direction,
    body: message.body,
    subject: message.subject ?? null,
    fromEmail: message.fromEmail ?? null,
    createdAt: message.createdAt,
  });
