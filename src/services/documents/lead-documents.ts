/**
 * The documents on a lead: the partner's upload (decide, store the bytes,
 * record the row and its `document.*` event in one batch), list and removal of
 * a rejected upload, and the business's removal of a file it sent on a
 * lender's request. The decisions are the pure domain's; the lead lookup
 * scopes everything to the caller.
 */
import { isoNow, type Deps } from "../deps";
import {
  documentExists,
  documentsOfLead,
  findDocument,
  findDocumentOfLead,
  partnerDocumentDelete,
  partnerDocumentRemovable,
  partnerUploadCount,
  partnerUploadInsertUnderCap,
} from "../../db/documents/documents";
import { uploadReleasedStatement } from "../../db/documents/uploads";
import { auditEntryWhere } from "../../db/portal/audit";
import { runGuardedBatch } from "../../db/batch";
import { eventInsertWhere } from "../../db/guarded";
import type { NewEvent } from "../../db/event-rows";
import type { Lead } from "../../domain/leads/types";
import { apiKeyActor } from "../../domain/portal/audit-actions";
import type { Scope } from "../../domain/identity/caller";
import { decideDocument } from "../../domain/documents/decision";
import { DANGER_NAMES, dangerousContent } from "../../domain/documents/file-type";
import { filenameForKind } from "../../domain/documents/filename";
import { clientRemovalRefusal, PARTNER_REMOVABLE_STATES, partnerRemovalRefusal, requestAfterRemoval } from "../../domain/documents/removal";
import { documentRemovedDetail } from "../../domain/documents/view";
import { findRequestOfDeal, findRequestOfLead, requestChanged, requestFileDeleteWhere, requestFileRemovedUpdate } from "../../db/documents/requests";
import { findDealOfLead } from "../../db/hub/client-hub";
import { lenderEvent } from "../deals/events";
import { randomToken } from "../../lib/crypto";
import type { StoredDocument } from "../../domain/documents/types";
import { documentStorageKey, leadDocumentView } from "../../domain/documents/view";
import type { DocumentType } from "../../domain/reference/values";
import { Refusal } from "../../lib/refusal";
import { newId } from "../../lib/ids";
import { requireLead } from "../leads/leads";
import { putTracked, uploadLanded } from "../uploads/tracked-uploads";

/** Files a partner may put on one lead, rejected ones included (they are kept). */
export const DOCUMENTS_PER_LEAD = 100;

export interface DocumentUpload {
  documentType: DocumentType;
  filename: string;
  bytes: Uint8Array;
}

/** A `document.*` event: the partner's, about the lead, carrying the document as the partner reads it. */
const documentEvent = (lead: Lead, event: string, doc: StoredDocument): NewEvent => ({
  organisationId: lead.organisationId,
  environment: lead.environment,
  api: "partner",
  event,
  subjectType: "lead",
  subjectId: lead.id,
  detail: { reference: lead.reference, document: leadDocumentView(doc) },
});

const capExceeded = () =>
  new Refusal("cap_exceeded", `A lead holds at most ${DOCUMENTS_PER_LEAD} partner documents; this lead has reached the limit.`, {
    extra: { limit: DOCUMENTS_PER_LEAD },
  });

export async function uploadLeadDocument(deps: Deps, scope: Scope, leadId: string, upload: DocumentUpload): Promise<StoredDocument> {
  const { db } = deps;
  const lead = await requireLead(deps, scope, leadId);
  // A cheap early answer; the conditional insert below is what decides a race.
  if ((await partnerUploadCount(db, lead.id)) >= DOCUMENTS_PER_LEAD) throw capExceeded();

  const danger = dangerousContent(upload.bytes);
  if (danger) throw new Refusal("invalid_request", `The file is ${DANGER_NAMES[danger]}; upload the document itself as PDF, PNG, JPEG, XLSX, CSV or OFX.`, { field: "file" });
  const decision = decideDocument(upload.documentType, upload.bytes);
  const at = isoNow(deps);
  const id = newId("doc", 24);
  const doc: StoredDocument = {
    id,
    environment: lead.environment,
    leadId: lead.id,
    partnerOrganisationId: lead.organisationId,
    dealRef: null,
    requestId: null,
    source: "partner_upload",
    documentType: upload.documentType,
    filename: filenameForKind(upload.filename, decision.kind),
    contentType: decision.contentType,
    byteSize: upload.bytes.length,
    state: decision.state,
    reason: decision.reason,
    storageKey: documentStorageKey({ environment: lead.environment, leadId: lead.id, id }),
    statement: decision.statement,
    formulaCells: decision.formulaCells,
    receivedAt: at,
    decidedAt: at,
  };

  // Bytes first: a row never points at a file that is not there.
  await putTracked(deps, doc.storageKey, upload.bytes, { httpMetadata: { contentType: doc.contentType }, customMetadata: { filename: doc.filename } });
  await db.batch([
    partnerUploadInsertUnderCap(db, doc, DOCUMENTS_PER_LEAD),
    eventInsertWhere(db, documentEvent(lead, doc.state === "accepted" ? "document.accepted" : "document.rejected", doc), documentExists(doc.id), at),
    uploadLanded(db, doc.storageKey),
  ]);
  const stored = await findDocument(db, doc.id);
  if (!stored) {
    await deps.env.DOCUMENTS.delete(doc.storageKey);
    throw capExceeded();
  }
  return stored;
}

export async function leadDocuments(deps: Deps, scope: Scope, leadId: string) {
  const { db } = deps;
  const lead = await requireLead(deps, scope, leadId);
  return { lead, documents: await documentsOfLead(db, lead.id) };
}

const noSuchDocument = () => new Refusal("not_found", "No document with that id on this lead.");

/**
 * The partner takes a rejected upload off its lead. The row goes (it leaves every list and the
 * upload cap), its `document.removed` event and, for an API key, its audit entry are written in the
 * same batch, each guarded by the row still being removable, so a second removal at once writes
 * nothing. No lender ever saw a rejected upload, so the event is the partner's alone. The bytes are
 * deleted once the batch has committed; the batch marks the key released first, so a delete that
 * fails leaves an object the upload sweep deletes (tracked-uploads.ts), never a row without its file.
 *
 * `apiClientId`: the key that asked (its entry names it); null from the portal, whose form action
 * carries the member's entry in this batch (web/portal/form-action.ts).
 */
export async function removeLeadDocument(deps: Deps, scope: Scope, leadId: string, documentId: string, apiClientId: string | null): Promise<StoredDocument> {
  const { db } = deps;
  const lead = await requireLead(deps, scope, leadId);
  const doc = await findDocumentOfLead(db, lead.id, documentId);
  if (!doc) throw noSuchDocument();
  const refusal = partnerRemovalRefusal(doc);
  if (refusal) throw new Refusal("invalid_transition", refusal, { extra: { state: doc.state } });

  const at = isoNow(deps);
  const removable = partnerDocumentRemovable(doc.id, lead.id, PARTNER_REMOVABLE_STATES);
  const audit = apiClientId
    ? [auditEntryWhere(db, { id: newId("aud"), organisationId: lead.organisationId, memberId: apiKeyActor(apiClientId), environment: lead.environment, action: "document.removed", target: doc.id, at }, removable)]
    : [];
  const removed = await runGuardedBatch(db, [
    // First, so the portal's audit entry (which rides after a batch's first statement) is written only when this one is.
    eventInsertWhere(db, documentEvent(lead, "document.removed", doc), removable, at),
    ...audit,
    uploadReleasedStatement(db, doc.storageKey, at),
    partnerDocumentDelete(db, doc.id, lead.id, PARTNER_REMOVABLE_STATES),
  ]);
  if (removed !== 1) {
    // Another request removed it first.
    throw noSuchDocument();
  }
  await deleteRemovedBytes(deps, doc.storageKey);
  return doc;
}

/**
 * The bytes of a removed document, after its batch committed. The removal has happened, so a failed
 * delete does not fail the request (a retry would only find the document gone): the batch marked the
 * key released, and the upload sweep deletes the object once nothing points at it.
 */
async function deleteRemovedBytes(deps: Deps, storageKey: string) {
  try {
    await deps.env.DOCUMENTS.delete(storageKey);
  } catch (error) {
    deps.log.logError("document_bytes_left_for_sweep", error, { storage_key: storageKey }, "warn");
  }
}

/** A racing change to the request (another removal, an upload, the lender's read) makes this one read again; a few rounds settle it. */
const REMOVAL_ATTEMPTS = 5;

/**
 * The business takes back a file it sent on a lender's request (the client hub): while the request
 * is `uploaded` or `forwarded` and its deal undecided (domain/documents/removal.ts). The request's
 * count and status, the file's row and the lender's `document.removed` go in one batch, guarded on
 * the request's update (it must still be as read); with no file left the request is asked for
 * again. The lender had the file on its deal at once, so it is told; the partner never had an event
 * for a client's file, so it gets none. The bytes go after the commit, as for the partner's removal.
 */
export async function removeClientDocument(deps: Deps, lead: Lead, requestId: string, documentId: string): Promise<StoredDocument> {
  const request = await findRequestOfLead(deps.db, lead.id, requestId);
  if (!request) throw noSuchDocument();
  return removeClientDocumentOfDeal(deps, lead, request.dealRef, requestId, documentId);
}

/** The removal on a deal of the lead's named by its reference (the hub from the request; a test deal's simulation from the deal). */
export async function removeClientDocumentOfDeal(deps: Deps, lead: Lead, dealRef: string, requestId: string, documentId: string): Promise<StoredDocument> {
  const { db } = deps;
  for (let attempt = 0; attempt < REMOVAL_ATTEMPTS; attempt++) {
    const [deal, request, doc] = await Promise.all([findDealOfLead(db, lead.id, dealRef), findRequestOfDeal(db, dealRef, requestId), findDocumentOfLead(db, lead.id, documentId)]);
    if (!deal || !request || !doc || doc.requestId !== request.id || doc.source !== "client_upload") throw noSuchDocument();
    const refusal = clientRemovalRefusal(request, deal);
    if (refusal) throw new Refusal("invalid_transition", refusal);

    const at = isoNow(deps);
    const token = randomToken(24);
    const next = requestAfterRemoval(request);
    const changed = requestChanged(request.id, token);
    const removed = await runGuardedBatch(db, [
      requestFileRemovedUpdate(db, request, doc.id, next, token),
      eventInsertWhere(db, lenderEvent(deal, "document.removed", documentRemovedDetail(doc, { ...request, ...next })), changed, at),
      uploadReleasedStatement(db, doc.storageKey, at),
      requestFileDeleteWhere(db, doc.id, changed),
    ]);
    if (removed === 1) {
      await deleteRemovedBytes(deps, doc.storageKey);
      return doc;
    }
  }
  throw new Refusal("invalid_transition", "The request changed while removing the file; please try again.");
}
