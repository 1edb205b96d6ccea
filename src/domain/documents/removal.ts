/**
 * Which documents their uploader may take off a lead. A partner's upload is
 * decided the moment it arrives; a rejected one is kept and listed so the
 * partner sees why, but no lender ever sees it, so removing it takes nothing
 * from anyone. An accepted one is on every routed lender's deal at once (and
 * may be the statement the lead's figures come from), so it stays.
 */
import type { DocumentState, StoredDocument } from "./types";

/** The states a partner's upload may be removed in. */
export const PARTNER_REMOVABLE_STATES: readonly DocumentState[] = ["rejected"];

export const partnerMayRemove = (d: Pick<StoredDocument, "state">) => PARTNER_REMOVABLE_STATES.includes(d.state);

/** Why the partner cannot remove `d`, in words for its API answer and its page; null when it can. */
export function partnerRemovalRefusal(d: Pick<StoredDocument, "source" | "state">): string | null {
  if (d.source !== "partner_upload") return "The business uploaded this document in its client hub for a funding provider's request; only the business can remove it there.";
  if (!partnerMayRemove(d)) return "The document was accepted and every funding provider the lead is routed to can read it: an accepted document stays on the lead. Only a rejected document can be removed.";
  return null;
}
