/**
 * Where an offer stands for the business reading it in the hub: whether the
 * page offers the accept form, and the plain words for why not. Display only:
 * the acceptance itself is decided by the partner API's own `acceptOffer`,
 * which the hub calls. Pure.
 */
import { LEAD_STATES_OPEN_FOR_OFFERS } from "../deals/status";
import { isAcceptable, type Offer } from "../deals/types";

export type OfferStanding = "open" | "accepted" | "declined" | "superseded" | "withdrawn" | "expired" | "lead_closed";

export function offerStanding(offer: Offer, leadState: string, now: Date): OfferStanding {
  if (offer.state === "accepted") return "accepted";
  if (offer.state === "declined") return "declined";
  if (offer.superseded) return "superseded";
  if (offer.state !== "presented") return "withdrawn";
  if (!isAcceptable(offer, now)) return "expired";
  if (!(LEAD_STATES_OPEN_FOR_OFFERS as readonly string[]).includes(leadState)) return "lead_closed";
  return "open";
}

export const STANDING_TEXT: Record<OfferStanding, string> = {
  open: "Open: you can accept it",
  accepted: "Accepted by you",
  declined: "Declined by you",
  superseded: "Replaced by newer terms",
  withdrawn: "No longer available",
  expired: "Expired",
  lead_closed: "Your application no longer takes offers",
};

/** How the business pays for it: the rate the offer is priced with, in the offer's own terms. */
export function costOf(offer: Pick<Offer, "annualRatePct" | "factorRate">) {
  if (offer.annualRatePct !== null) return `${offer.annualRatePct}% a year`;
  if (offer.factorRate !== null) return `factor rate ${offer.factorRate}`;
  return null;
}
