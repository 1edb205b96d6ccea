/**
 * How the hub names things, and the `request.fulfilled` detail. Pure.
 */
import type { Deal } from "../deals/types";
import type { DocumentRequest, StoredDocument } from "../documents/types";
import { PRODUCT_FAMILIES } from "../reference/values";

/** A deal as the business sees it: its offer's label (or the product family asked for), never the lender. */
export function dealLabel(deal: Pick<Deal, "subject">, offerLabel: string | undefined) {
  return offerLabel ?? PRODUCT_FAMILIES.find((f) => f.value === deal.subject.funding?.product_family)?.label ?? "Funding application";
}

/** The stored detail of `request.fulfilled`: no urls (the payload builder adds fresh signed links per file). */
export function requestFulfilledDetail(r: DocumentRequest, files: readonly StoredDocument[], uploadedAt: string) {
  return {
    request: {
      id: r.id,
      item_type: r.itemType,
      label: r.label,
      file_count: files.length,
      uploaded_at: uploadedAt,
      files: files.map((f) => ({ id: f.id, document_type: f.documentType, filename: f.filename, content_type: f.contentType, size_bytes: f.byteSize })),
    },
  };
}

export const MESSAGE_BODY_MAX = 5000;
export const MESSAGE_SUBJECT_MAX = 200;
/** Files one document request takes in all (and so in one upload): the 11th is refused `cap_exceeded`. */
export const FILES_PER_UPLOAD_MAX = 10;
/** Client uploads one lead holds across all its requests (the partner's own uploads have their own 100). */
export const CLIENT_DOCUMENTS_PER_LEAD_MAX = 100;
