import { matchBusiness, monthlyFromAnnualTurnover, refusedCountryResult, type BusinessFacts, type Figure, type MatchResult } from "../../domain/panel/matcher";
import { unlocksFor, type Unlock } from "../../domain/panel/unlocks";
import type { PanelProduct } from "../../domain/panel/product";
import { MARKETS, REFUSED_COUNTRIES, type CountryResolution } from "../../domain/reference/markets";
import type { CreditScoreBand, Industry, Purpose } from "../../domain/reference/values";

export const PREQUALIFICATION_DISCLAIMER =
  "Indicative only: based on the facts given and the panel's current limits. It is not an offer or a decision to lend; no credit search was run and nothing was stored.";

export interface PrequalificationInput {
  country: { input: string; resolution: Exclude<CountryResolution, { ok: false; reason: "unknown" }> };
  business?: { industry?: Industry };
  funding: { purpose: Purpose; amount?: number; amount_band?: string };
  trading?: {
    monthly_revenue?: number;
    monthly_revenue_band?: string;
    annual_turnover?: number;
    tib_months?: number;
    time_in_business_band?: string;
    credit_score_band?: CreditScoreBand;
  };
}

/**
 * Monthly revenue as the request gives it: the monthly figure, else a twelfth
 * of the annual turnover (basis `annual_turnover`), else the band (which the
 * matcher turns into its figure). A reported number beats a band.
 */
function monthlyRevenue(trading: PrequalificationInput["trading"]): Figure | null {
  if (trading?.monthly_revenue !== undefined) return { value: trading.monthly_revenue, basis: "reported" };
  if (trading?.annual_turnover !== undefined) return monthlyFromAnnualTurnover(trading.annual_turnover);
  return null;
}

const figureView = (figure: Figure | null) => [figure?.value ?? null, figure?.basis ?? null] as const;

/** The prequalification answer; pure, so the panel comes in from the cache. */
export function prequalify(input: PrequalificationInput, panel: readonly PanelProduct[]) {
  const { resolution } = input.country;
  let country: string;
  let result: MatchResult;
  let unlocks: Unlock[] = [];
  if (!resolution.ok) {
    const refused = REFUSED_COUNTRIES.find((r) => r.name === resolution.name)!;
    country = refused.country;
    result = refusedCountryResult(resolution.name, refused.currency, input.country.input);
  } else {
    country = resolution.market.code;
    const trading = input.trading;
    const facts: BusinessFacts = {
      market: resolution.market,
      industry: input.business?.industry ?? null,
      purpose: input.funding.purpose,
      amount: input.funding.amount ?? null,
      amountBand: input.funding.amount_band ?? null,
      monthlyRevenue: monthlyRevenue(trading),
      monthlyRevenueBand: trading?.monthly_revenue_band ?? null,
      tibMonths: trading?.tib_months ?? null,
      timeInBusinessBand: trading?.time_in_business_band ?? null,
      creditScoreBand: trading?.credit_score_band ?? null,
    };
    result = matchBusiness(facts, panel);
    unlocks = unlocksFor(facts, panel, result);
  }
  const [amount, amountBasis] = figureView(result.figures.amount);
  const [revenue, revenueBasis] = figureView(result.figures.monthlyRevenue);
  const [tib, tibBasis] = figureView(result.figures.tibMonths);
  return {
    country,
    currency: result.currency,
    eligible: result.eligible,
    decision: result.decision,
    matched_options: result.matchedOptions,
    product_families: result.productFamilies,
    indicative_amount: result.indicativeAmount,
    reasons: result.reasons,
    unlocks,
    figures: {
      amount,
      amount_basis: amountBasis,
      monthly_revenue: revenue,
      monthly_revenue_basis: revenueBasis,
      tib_months: tib,
      tib_months_basis: tibBasis,
    },
    supported_countries: MARKETS.map((m) => m.code),
    disclaimer: PREQUALIFICATION_DISCLAIMER,
  };
}
