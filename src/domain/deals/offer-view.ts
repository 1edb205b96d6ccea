/**
 * An offer as each side sees it: the lender its own terms and supersession, the partner
 * a structural label and never the lender. Pure; the lead view and the deal view both use it.
 */
import type { Offer } from "./types";
import { OFFER_DECLINE_REASONS } from "../reference/values";

const DECLINE_LABELS = new Map<string, string>(OFFER_DECLINE_REASONS.map((r) => [r.value, r.label]));

/** The business's "no", the same in both views: its code, the label, and when. */
const declinedOf = (o: Offer) =>
  o.state === "declined" && o.declinedReason !== null && o.declinedAt !== null
    ? { reason_code: o.declinedReason, label: DECLINE_LABELS.get(o.declinedReason) ?? o.declinedReason, at: o.declinedAt }
    : null;

/** The terms of an offer, the same in the lender's and the partner's view. */
const offerTerms = (o: Offer) => ({
  annual_rate_pct: o.annualRatePct,
  factor_rate: o.factorRate,
  term_months: o.termMonths,
  fees: o.fees,
  total_repayment: o.totalRepayment,
  expires_at: o.expiresAt,
});

export function dealOfferView(o: Offer) {
  return {
    id: o.id,
    amount: o.amount,
    currency: o.currency,
    kind: o.kind,
    maturity: o.maturity,
    status: o.superseded ? ("superseded" as const) : o.state,
    created_at: o.createdAt,
    superseded: o.superseded,
    superseded_at: o.supersededAt,
    superseded_by: o.supersededBy,
    ...offerTerms(o),
    notes: o.notes,
    declined: declinedOf(o),
  };
}

/** The partner's view of an offer: structural label, never the lender. */
export function partnerOfferView(o: Offer) {
  return {
    id: o.id,
    label: o.label,
    state: o.state,
    maturity: o.maturity,
    amount: o.amount,
    currency: o.currency,
    ...offerTerms(o),
    created_at: o.createdAt,
    declined: declinedOf(o),
  };
}


/** Whether the lead has current offers and the business declined every one. */
export const allDeclined = (current: readonly Pick<Offer, "state">[]) => current.length > 0 && current.every((o) => o.state === "declined");
