/**
 * What would unlock more options: for each figure a business can change, the
 * nearest value at which the same matcher (./matcher.ts) offers more options,
 * read from the panel's own thresholds. A threshold is a fact about the panel,
 * not about a provider, so an unlock never names one. Prequalification answers
 * these so the API and the embeddable widget say the same thing.
 */
import { marketCarriesCreditScore, matchBusiness, matchedOptionCount, productsInMarket, type BusinessFacts, type MatchResult } from "./matcher";
import type { PanelProduct } from "./product";
import { bandRank } from "../reference/bands";
import { CREDIT_SCORE_BANDS, type CreditScoreBand } from "../reference/values";
import type { Need, RequirementField } from "./requirements";

export const UNLOCK_FIELDS = ["funding.amount", "trading.monthly_revenue", "trading.tib_months", "trading.credit_score_band"] as const;
export type UnlockField = (typeof UNLOCK_FIELDS)[number];

export interface Unlock {
  /** A figure the business could change, or something a product requires the application to hold (./requirements.ts). */
  field: UnlockField | RequirementField;
  /** The figure (major units, months) or the credit score band the business would need; `true` for a requirement: hold it. */
  needed: number | CreditScoreBand | true;
  /** How many more options the match would hold at that value. */
  options_added: number;
}

const ascending = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);

/** The first candidate, in the order given, at which the match holds more options than now. */
function firstThatAdds<T>(candidates: readonly T[], now: number, countWith: (value: T) => number) {
  for (const value of candidates) {
    const added = countWith(value) - now;
    if (added > 0) return { value, added };
  }
  return null;
}

/**
 * The nearest change per field. An unknown figure excludes nothing (the
 * matcher's unknown rule), so it has nothing to unlock; neither does a market
 * nobody serves or a company the register says is not active.
 */
export function unlocksFor(facts: BusinessFacts, panel: readonly PanelProduct[], current: MatchResult): Unlock[] {
  if (current.decision === "out_of_scope" || facts.companyNotActive) return [];
  const inMarket = productsInMarket(panel, facts.market.country);
  const now = current.matchedOptions;
  const unlocks: Unlock[] = [];
  const { amount, monthlyRevenue, tibMonths } = current.figures;
  /** The match's option count with one figure replaced by a reported value (counted, not worded). */
  const matchWith = (key: "amount" | "monthlyRevenue" | "tibMonths") => (value: number) =>
    matchedOptionCount({ ...facts, [key]: { value, basis: "reported" } }, panel);
  /** The panel's thresholds of one kind above a figure, nearest first. */
  const above = (threshold: (p: PanelProduct) => number, figure: number) => ascending(inMarket.map(threshold).filter((v) => v > figure));

  if (amount) {
    const raise = firstThatAdds(above((p) => p.minAmount, amount.value), now, matchWith("amount"));
    const lower = firstThatAdds(ascending(inMarket.map((p) => p.maxAmount).filter((v) => v < amount.value)).reverse(), now, matchWith("amount"));
    const nearest = [raise, lower]
      .filter((c): c is NonNullable<typeof c> => c !== null)
      .sort((a, b) => Math.abs(a.value - amount.value) - Math.abs(b.value - amount.value))[0];
    if (nearest) unlocks.push({ field: "funding.amount", needed: nearest.value, options_added: nearest.added });
  }

  if (monthlyRevenue) {
    const found = firstThatAdds(above((p) => p.minMonthlyRevenue, monthlyRevenue.value), now, matchWith("monthlyRevenue"));
    if (found) unlocks.push({ field: "trading.monthly_revenue", needed: found.value, options_added: found.added });
  }

  if (tibMonths) {
    const found = firstThatAdds(above((p) => p.minMonthsTrading, tibMonths.value), now, matchWith("tibMonths"));
    if (found) unlocks.push({ field: "trading.tib_months", needed: found.value, options_added: found.added });
  }

  const band = facts.creditScoreBand;
  if (band && marketCarriesCreditScore(facts.market)) {
    const higher = CREDIT_SCORE_BANDS.map((b) => b.value).filter((b) => bandRank(CREDIT_SCORE_BANDS, b) > bandRank(CREDIT_SCORE_BANDS, band));
    const found = firstThatAdds(higher, now, (value) => matchedOptionCount({ ...facts, creditScoreBand: value }, panel));
    if (found) unlocks.push({ field: "trading.credit_score_band", needed: found.value, options_added: found.added });
  }

  // A requirement the application could add on its own; a set of several is in the match's `needs`.
  for (const need of current.needs) {
    if (need.fields.length === 1) unlocks.push({ field: need.fields[0], needed: true, options_added: need.options_added });
  }

  return unlocks;
}

/**
 * A submitted lead's unlocks and needs: the same reckoning as prequalification's, on the options
 * still open to it: the panel without the products of every lender that has declined the lead (a
 * lender that said no to this business will not say yes under another of its products, as a
 * referral leaves its referring lender out). After each decline the lead reads what would still add
 * an option.
 */
export function outlookOnOpenOptions(facts: BusinessFacts, panel: readonly PanelProduct[], declinedBy: readonly string[]): { unlocks: Unlock[]; needs: Need[] } {
  const shut = new Set(declinedBy);
  const open = panel.filter((p) => !shut.has(p.lenderOrganisationId));
  const match = matchBusiness(facts, open);
  return { unlocks: unlocksFor(facts, open, match), needs: match.needs };
}
