/** The agreement a lender uploads for the business to sign in the hub. */
import { isoNow, type Deps } from "../deps";
import { agreementRecord } from "../../db/deals/deals";
import { agreementKeyOf } from "../../db/hub/client-hub";
import { uploadReleasedStatement } from "../../db/documents/uploads";
import type { Statement } from "../../db/batch";
import { notificationInsert } from "../../db/hub/client-notifications";
import type { Scope } from "../../domain/identity/caller";
import type { Deal } from "../../domain/deals/types";
import { completionView } from "../../domain/deals/view";
import { Refusal } from "../../lib/refusal";
import { randomToken } from "../../lib/crypto";
import { runGuardedBatch } from "../../db/batch";
import { notFound, requireDeal } from "./reads";
import { putTracked, uploadLanded } from "../uploads/tracked-uploads";

/**
 * Where one upload of a deal's agreement lives in the DOCUMENTS bucket: every upload has its own
 * key, so a replacement never overwrites the bytes a signature may already be bound to.
 */
export const agreementKey = (deal: Deal) => `deals/${deal.environment}/${deal.ref}/agreement-${randomToken(12)}.pdf`;

const agreementSigned = () => new Refusal("agreement_signed", "The business has signed this deal's agreement; a signed agreement cannot be replaced.");

/**
 * Stores a new agreement for the business to sign. Once signed it is immutable: refused before the
 * bytes are written, and again by the row's own guard (`signed_at is null`) if the signature lands
 * while the upload is in flight; the upload that lost is swept, the signed file is untouched.
 */
export async function uploadAgreement(deps: Deps, scope: Scope, ref: string, pdf: ArrayBuffer) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  if (deal.signedAt) throw agreementSigned();
  const previous = deal.agreementUploadedAt ? await agreementKeyOf(db, deal.ref) : null;
  const key = agreementKey(deal);
  await putTracked(deps, key, pdf, { httpMetadata: { contentType: "application/pdf" } });
  const at = isoNow(deps);
  const statements: Statement[] = [agreementRecord(db, scope, deal.ref, key, at), uploadLanded(db, key)];
  if (previous) statements.push(uploadReleasedStatement(db, previous, at));
  if (deal.leadId) {
    statements.push(
      notificationInsert(db, { leadId: deal.leadId, environment: deal.environment, kind: "agreement", dealRef: deal.ref, subject: `Your agreement for ${deal.ref} is ready to sign`, deepLink: `/deals/${deal.ref}/completion` }, at),
    );
  }
  const guardChanges = await runGuardedBatch(db, statements);
  if (guardChanges !== 1) {
    if ((await requireDeal(deps, scope, ref)).signedAt) throw agreementSigned();
    throw notFound();
  }
  return completionView(await requireDeal(deps, scope, ref));
}
