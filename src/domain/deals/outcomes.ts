/**
 * A lead's routed options as the partner reads them: "Option 1", "Option 2"… in routing
 * order, each with its product family, where it stands and, once declined, the coded reasons with
 * their labels. Built from the lender's deals but naming no lender: nothing of the deal beyond its
 * family, status, reasons and time reaches the result, and a detail only when marked shareable.
 */
import type { PartnerOutcome } from "../leads/types";
import type { LenderStatus } from "../reference/values";
import { partnerReasonView, type DeclineReason } from "./decline";
import type { DealStatus } from "./types";

/** What the outcome of one routed option is read from: the deal's columns, never its lender. */
export interface RoutedOption {
  /** Internal: lets the status batch put its own change in place before it writes (never shown). */
  ref: string;
  /** Internal: a lender that declined closes its products to the lead's unlocks (domain/panel/unlocks.ts); never shown. */
  lenderOrganisationId: string;
  productFamily: string | null;
  lenderStatus: LenderStatus;
  status: DealStatus;
  declineReasons: readonly DeclineReason[];
  createdAt: string;
  updatedAt: string;
}

const outcomeOf = (o: RoutedOption): PartnerOutcome["outcome"] => {
  if (o.lenderStatus === "new") return "pending";
  if (o.lenderStatus === "offer_made" && o.status === "offer_accepted") return "offer_accepted";
  return o.lenderStatus;
};

/** The options in routing order (the caller passes them in the order the deals were created). */
export function partnerOutcomes(options: readonly RoutedOption[]): PartnerOutcome[] {
  return options.map((o, i) => ({
    option: `Option ${i + 1}`,
    product_family: o.productFamily,
    outcome: outcomeOf(o),
    reasons: o.lenderStatus === "declined" ? o.declineReasons.map(partnerReasonView) : [],
    // A new deal's time is when it was routed; every other outcome is dated by the deal's last change.
    at: o.lenderStatus === "new" ? o.createdAt : o.updatedAt,
  }));
}
