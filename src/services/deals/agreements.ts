/** The agreement a lender uploads for the business to sign in the hub. */
import type { Database } from "../../db/client";
import { agreementRecord } from "../../db/deals/deals";
import type { Statement } from "../../db/batch";
import { notificationInsert } from "../../db/hub/client-notifications";
import type { Scope } from "../../domain/identity/caller";
import type { Deal } from "../../domain/deals/types";
import { completionView } from "../../domain/deals/view";
import { nowIso } from "../../lib/ids";
import { runGuardedBatch } from "../../db/batch";
import { notFound, requireDeal } from "./reads";
import { putTracked, uploadLanded } from "../documents/tracked-uploads";

/** Where a deal's agreement lives in the DOCUMENTS bucket. */
export const agreementKey = (deal: Deal) => `deals/${deal.environment}/${deal.ref}/agreement.pdf`;

export async function uploadAgreement(db: Database, bucket: R2Bucket, scope: Scope, ref: string, pdf: ArrayBuffer) {
  const deal = await requireDeal(db, scope, ref);
  const key = agreementKey(deal);
  await putTracked(db, bucket, key, pdf, { httpMetadata: { contentType: "application/pdf" } });
  const at = nowIso();
  const statements: Statement[] = [agreementRecord(db, scope, deal.ref, key, at), uploadLanded(db, key)];
  if (deal.leadId) {
    statements.push(
      notificationInsert(db, { leadId: deal.leadId, environment: deal.environment, kind: "agreement", dealRef: deal.ref, subject: `Your agreement for ${deal.ref} is ready to sign`, deepLink: `/deals/${deal.ref}/completion` }, at),
    );
  }
  const guardChanges = await runGuardedBatch(db, statements);
  if (guardChanges !== 1) throw notFound();
  return completionView(await requireDeal(db, scope, ref));
}
