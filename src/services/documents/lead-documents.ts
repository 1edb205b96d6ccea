/**
 * The partner's documents on a lead: upload (decide, store the bytes, record
 * the row and its `document.*` event in one batch) and list. The decision is
 * the pure domain's; the lead lookup scopes everything to the caller.
 */
import { isoNow, type Deps } from "../deps";
import { documentExists, documentsOfLead, findDocument, partnerUploadCount, partnerUploadInsertUnderCap } from "../../db/documents/documents";
import { eventInsertWhere } from "../../db/guarded";
import type { Scope } from "../../domain/identity/caller";
import { decideDocument } from "../../domain/documents/decision";
import { DANGER_NAMES, dangerousContent } from "../../domain/documents/file-type";
import { filenameForKind } from "../../domain/documents/filename";
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
    eventInsertWhere(
      db,
      {
        organisationId: lead.organisationId,
        environment: lead.environment,
        api: "partner",
        event: doc.state === "accepted" ? "document.accepted" : "document.rejected",
        subjectType: "lead",
        subjectId: lead.id,
        detail: { reference: lead.reference, document: leadDocumentView(doc) },
      },
      documentExists(doc.id),
      at,
    ),
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
