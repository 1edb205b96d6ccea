/**
 * Commission terms and their amount: a percentage of the funded amount (basis points) or a flat
 * amount, held between an optional minimum and maximum. Everything in integer minor units of the
 * terms' currency; the one rounding rule is money.ts's (half up).
 */
import { divideHalfUp, type CurrencyCode } from "./money";

type CommissionBasis = "percentage" | "flat";

export interface CommissionTerms {
  id: string;
  lenderOrganisationId: string;
  productId: string;
  /** `""` for the product's default terms. */
  partnerOrganisationId: string;
  currency: CurrencyCode;
  basis: CommissionBasis;
  /** With `percentage`: 1 to 10000 (0.01% to 100%). */
  rateBps: number | null;
  /** With `flat`: minor units. */
  flatAmount: number | null;
  minAmount: number | null;
  maxAmount: number | null;
  clawbackDays: number;
  effectiveAt: string;
}

/** The product's default terms are stored under this partner key. */
export const DEFAULT_PARTNER = "";

/** Terms as the operator sets them, before they are a row: the reasons a set is refused, by field. */
export type TermsInput = Pick<CommissionTerms, "basis" | "rateBps" | "flatAmount" | "minAmount" | "maxAmount" | "clawbackDays">;

/** The field at fault and why, or null when the terms make sense together (the schema checked each field's type and range). */
export function termsProblem(t: TermsInput): { field: string; detail: string } | null {
  if (t.basis === "percentage" && t.rateBps === null) return { field: "rate_bps", detail: "rate_bps is required with basis percentage." };
  if (t.basis === "percentage" && t.flatAmount !== null) return { field: "flat_amount", detail: "flat_amount is only taken with basis flat." };
  if (t.basis === "flat" && t.flatAmount === null) return { field: "flat_amount", detail: "flat_amount is required with basis flat." };
  if (t.basis === "flat" && t.rateBps !== null) return { field: "rate_bps", detail: "rate_bps is only taken with basis percentage." };
  if (t.minAmount !== null && t.maxAmount !== null && t.minAmount > t.maxAmount) return { field: "min_amount", detail: "min_amount is above max_amount." };
  return null;
}

/**
 * The commission on a funded amount (both minor units): the percentage rounded half up (or the flat
 * amount), then raised to the minimum and capped at the maximum. A maximum below the minimum is
 * refused when the terms are set, so the order of the two never matters.
 */
export function commissionOn(terms: Pick<CommissionTerms, "basis" | "rateBps" | "flatAmount" | "minAmount" | "maxAmount">, fundedMinor: number): number {
  if (!Number.isSafeInteger(fundedMinor) || fundedMinor < 0) throw new RangeError("commissionOn takes a funded amount in whole minor units.");
  let amount = terms.basis === "flat" ? terms.flatAmount! : Number(divideHalfUp(BigInt(fundedMinor) * BigInt(terms.rateBps!), 10_000n));
  if (terms.minAmount !== null) amount = Math.max(amount, terms.minAmount);
  if (terms.maxAmount !== null) amount = Math.min(amount, terms.maxAmount);
  return amount;
}

/**
 * The terms in force at `at` for a partner: its own terms if any were in force then, else the
 * product's default then; null when neither. `history` holds every change of the product's terms in
 * the currency (any order); a change takes effect at its `effectiveAt`, so one made after `at` is not
 * in force at `at`.
 */
export function termsInForce<T extends Pick<CommissionTerms, "partnerOrganisationId" | "effectiveAt">>(history: readonly T[], partnerOrganisationId: string, at: string): T | null {
  const latest = (partner: string) =>
    history
      .filter((t) => t.partnerOrganisationId === partner && t.effectiveAt <= at)
      .reduce<T | null>((best, t) => (best === null || t.effectiveAt >= best.effectiveAt ? t : best), null);
  return latest(partnerOrganisationId) ?? latest(DEFAULT_PARTNER);
}

/** True when a settlement or default reported at `reportedAt` falls within the clawback window that opened at `fundedAt`. */
export function withinClawback(fundedAt: string, reportedAt: string, clawbackDays: number): boolean {
  return Date.parse(reportedAt) - Date.parse(fundedAt) <= clawbackDays * 86_400_000;
}
