/**
 * The lender's own status of a deal (`lender_status`):
 * new → in_review → offer_made → declined | funded. Making an offer moves to
 * offer_made; funded needs an offer made; declined is possible until an
 * outcome. declined and funded are final.
 */
import type { LenderStatus } from "../reference/values";

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
