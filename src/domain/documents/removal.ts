/**
 * Which documents their uploader may take off a lead. A partner's upload is
 * decided the moment it arrives; a rejected one is kept and listed so the
 * partner sees why, but no lender ever sees it, so removing it takes nothing
 * from anyone. An accepted one is on every routed lender's deal at once (and
 * may be the statement the lead's figures come from), so it stays. The business's own files in the
 * client hub follow their request (below).
 */
import { dealTakesRequests } from "./requests";
import type { DocumentRequest, DocumentState, RequestStatus, StoredDocument } from "./types";

/** The states a partner's upload may be removed in. */
export const PARTNER_REMOVABLE_STATES: readonly DocumentState[] = ["rejected"];

export const partnerMayRemove = (d: Pick<StoredDocument, "state">) => PARTNER_REMOVABLE_STATES.includes(d.state);

/** Why the partner cannot remove `d`, in words for its API answer and its page; null when it can. */
export function partnerRemovalRefusal(d: Pick<StoredDocument, "source" | "state">): string | null {
  if (d.source !== "partner_upload") return "The business uploaded this document in its client hub for a funding provider's request; only the business can remove it there.";
  if (!partnerMayRemove(d)) return "The document was accepted and every funding provider the lead is routed to can read it: an accepted document stays on the lead. Only a rejected document can be removed.";
  return null;
}

/**
 * A file the business sent against a lender's request is on that lender's deal at once; the lender
 * does not accept or reject it, so it stays the business's to take back until the deal is decided
 * (funded or declined: the files are then what it was decided on) or the request is waived. The
 * request statuses it may be removed in: its files sent, not waived.
 */
export const CLIENT_REMOVABLE_REQUEST_STATUSES: readonly RequestStatus[] = ["uploaded", "forwarded"];

/** Why the business cannot remove a file of `request` on `deal`, in its words; null when it can. */
export function clientRemovalRefusal(request: Pick<DocumentRequest, "status">, deal: { status: string }): string | null {
  if (!dealTakesRequests(deal)) return "The funding provider has made its decision on this application, so the files it was given stay with it.";
  if (!CLIENT_REMOVABLE_REQUEST_STATUSES.includes(request.status)) return "The funding provider no longer needs this document, so its files stay as they are.";
  return null;
}

/** The request once one of its files is gone: with none left it is asked for again (`requested`). */
export function requestAfterRemoval(request: Pick<DocumentRequest, "status" | "fileCount" | "uploadedAt" | "forwardedAt">) {
  const fileCount = request.fileCount - 1;
  return fileCount > 0
    ? { status: request.status, fileCount, uploadedAt: request.uploadedAt, forwardedAt: request.forwardedAt }
    : { status: "requested" as RequestStatus, fileCount: 0, uploadedAt: null, forwardedAt: null };
}
