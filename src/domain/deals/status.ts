/**
 * The lender's own status of a deal (`lender_status`):
 * new → in_review → offer_made → declined | funded. Making an offer moves to
 * offer_made; funded needs an offer made; declined is possible until an
 * outcome. declined and funded are final.
 */
import { Refusal } from "../../lib/refusal";
import type { LenderStatus } from "../reference/values";
import type { Offer } from "./types";

export const REPORTABLE_STATUSES = ["in_review", "declined", "funded"] as const;
export type ReportableStatus = (typeof REPORTABLE_STATUSES)[number];

const MOVES: Record<LenderStatus, readonly LenderStatus[]> = {
  new: ["in_review", "offer_made", "declined"],
  in_review: ["offer_made", "declined"],
  offer_made: ["offer_made", "declined", "funded"],
  declined: [],
  funded: [],
};

/** The statuses a deal may be in for a move to `to`. */
export const statusesAllowing = (to: LenderStatus): LenderStatus[] =>
  (Object.keys(MOVES) as LenderStatus[]).filter((from) => MOVES[from].includes(to));

export const canMove = (from: LenderStatus, to: LenderStatus) => MOVES[from].includes(to);

/** Lead states from which a lender's outcome still flows back to the lead. */
export const LEAD_STATES_OPEN_FOR_OUTCOME = ["matched", "offers_available", "offer_accepted"] as const;
/** Lead states in which an offer can be presented. */
export const LEAD_STATES_OPEN_FOR_OFFERS = ["matched", "offers_available"] as const;

type OfferTerms = Pick<Offer, "amount" | "currency" | "state" | "superseded">;

/**
 * The offer that caps what a lender may report as funded: the deal's offer the partner accepted, or,
 * while none is accepted, the deal's current (not superseded) offer. A larger figure would reach the
 * partner as the funding outcome (and any commission worked out on it) although no one agreed to it.
 * `null` when the deal holds no offer (funding then fails on its status anyway). `fundableUpTo` in
 * src/db/deals/deals.ts states the same rule in the status update's condition, so an offer made while
 * the report is on its way cannot slip past it.
 */
export function fundingCeiling<O extends OfferTerms>(offers: readonly O[]): O | null {
  const accepted = offers.find((o) => o.state === "accepted");
  if (accepted) return accepted;
  const current = offers.filter((o) => !o.superseded);
  return current.at(-1) ?? null;
}

/** The refusal of a funded amount above the ceiling's, or null when the amount may be reported. */
export function fundedAmountRefusal(amount: number, ceiling: OfferTerms | null): Refusal | null {
  if (ceiling === null || amount <= ceiling.amount) return null;
  const which = ceiling.state === "accepted" ? "the accepted offer" : "the deal's current offer";
  return new Refusal("amount_above_offer", `funded_amount ${amount} is above the ${ceiling.currency} ${ceiling.amount} of ${which}; report at most that amount.`, {
    field: "funded_amount",
  });
}

/**
 * The portal's rule before a person reports a deal funded (issue 45 item 8): only after the
 * business accepted this lender's offer (the deal's status `offer_accepted`). The lender API keeps
 * its wider move (offer made → funded) for integrations that arrange the acceptance elsewhere; a
 * person in the portal is told what is missing instead, in words.
 */
export function portalFundingRefusal(deal: { status: string; lenderStatus: LenderStatus }): Refusal | null {
  if (deal.lenderStatus === "funded" || deal.status === "funded") return new Refusal("invalid_transition", "This deal is already reported funded.");
  if (deal.lenderStatus === "declined" || deal.status === "declined") return new Refusal("invalid_transition", "This deal was declined, so it cannot be funded.");
  if (deal.status !== "offer_accepted") {
    return new Refusal(
      "invalid_transition",
      "You can report this deal funded only after the business accepts your offer. Make an offer, wait for it to be accepted, upload the agreement and let the business sign it; then pay out and come back here.",
    );
  }
  return null;
}

/** The day money was paid out: a calendar day, not after today (UTC) and not before the deal arrived. */
export function fundedOnRefusal(fundedOn: string, today: string, dealCreatedOn: string): Refusal | null {
  if (fundedOn > today) return new Refusal("invalid_request", "The funding date cannot be in the future: give the day the money was paid out.", { field: "funded_on" });
  if (fundedOn < dealCreatedOn) return new Refusal("invalid_request", "The funding date cannot be before the deal arrived.", { field: "funded_on" });
  return null;
}
