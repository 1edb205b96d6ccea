/**
 * How documents and document requests are shown: to the partner on the lead,
 * to the lender on the deal, in request lists and in `request.fulfilled`.
 * Pure; links are signed by the caller and passed in.
 */
import type { DocumentRequest, StoredDocument } from "./types";

/** The partner's entry in `lead.documents`. */
export function leadDocumentView(d: StoredDocument) {
  return {
    id: d.id,
    document_type: d.documentType,
    filename: d.filename,
    byte_size: d.byteSize,
    state: d.state,
    reason: d.reason,
    formula_cells: d.formulaCells,
    received_at: d.receivedAt,
  };
}

/** The lender's Deal document, with its signed download link. */
export function dealDocumentView(d: StoredDocument, url: string) {
  return {
    id: d.id,
    document_type: d.documentType,
    filename: d.filename,
    content_type: d.contentType,
    size_bytes: d.byteSize,
    uploaded_at: d.receivedAt,
    source: d.source,
    request_id: d.requestId,
    formula_cells: d.formulaCells,
    url,
  };
}

export type DealDocumentView = ReturnType<typeof dealDocumentView>;

/** The lender's `document.removed`: the file as its deal listed it (no link: the bytes are gone) and its request as it now stands. */
export function documentRemovedDetail(d: StoredDocument, r: Pick<DocumentRequest, "id" | "itemType" | "label" | "status" | "fileCount">) {
  const { url: _gone, ...listed } = dealDocumentView(d, "");
  return { document: listed, document_request: { id: r.id, item_type: r.itemType, label: r.label, status: r.status, file_count: r.fileCount } };
}

export function documentRequestView(r: DocumentRequest) {
  return {
    id: r.id,
    item_type: r.itemType,
    document_type: r.documentType,
    label: r.label,
    note: r.note,
    status: r.status,
    requested_via: r.requestedVia,
    requested_at: r.requestedAt,
    uploaded_at: r.uploadedAt,
    forwarded_at: r.forwardedAt,
    waived_at: r.waivedAt,
    file_count: r.fileCount,
    has_files: r.fileCount > 0,
  };
}

export function outstandingRequestView(r: DocumentRequest) {
  return { request_id: r.id, document_type: r.documentType, label: r.label, requested_at: r.requestedAt };
}

/** Where a lead's file lives in the DOCUMENTS bucket (agreements live under `deals/`). */
export const documentStorageKey = (d: Pick<StoredDocument, "environment" | "leadId" | "id">) => `leads/${d.environment}/${d.leadId}/documents/${d.id}`;
