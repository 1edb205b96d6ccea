/**
 * The matcher's facts for a submitted lead, built from the figures the lead
 * shows (`resolveFigures`), so routing reads the same numbers the partner sees.
 *
 * Monthly revenue follows the prequalification rule, so the same business
 * gets the same options from both: a reported (or parsed) monthly figure
 * first, then a twelfth of the annual turnover, then the revenue band.
 */
import type { ResolvedFigures } from "../figures";
import { monthlyFromAnnualTurnover, type BusinessFacts, type Figure } from "../panel/matcher";
import type { RequirementField } from "../panel/requirements";
import type { Market } from "../reference/markets";
import { notActiveStatus } from "../registers/facts";
import type { RegistryAnswer } from "../registers/types";
import type { CreditScoreBand, Industry, ProductFamily, Purpose } from "../reference/values";

export interface RoutingFacts {
  market: Market;
  figures: ResolvedFigures;
  industry: string | null;
  purpose: string | null;
  product_family: string | null;
  /** The company register's stored answer; null while none is stored. */
  registry?: RegistryAnswer | null;
  /** The company type, for requirements conditioned on it; null when unknown. */
  entity_type?: string | null;
  /** The requirement fields the application holds (../panel/requirements.ts); none when absent. */
  held?: ReadonlySet<RequirementField>;
}

const BAND_BASES = new Set(["band_midpoint", "band_lower_bound"]);

/** A resolved figure the matcher can take as given; bands go to the matcher as bands. */
function givenFigure(value: number | null, basis: string | null): Figure | null {
  if (value === null || basis === null || BAND_BASES.has(basis)) return null;
  return { value, basis: basis === "applicant" ? "reported" : (basis as Figure["basis"]) };
}

export function matcherFacts(facts: RoutingFacts): BusinessFacts {
  const f = facts.figures;
  const monthly =
    givenFigure(f.monthly_revenue, f.monthly_revenue_basis) ??
    (f.annual_turnover !== null ? monthlyFromAnnualTurnover(f.annual_turnover) : null);
  return {
    market: facts.market,
    industry: facts.industry as Industry | null,
    purpose: facts.purpose as Purpose | null,
    amount: givenFigure(f.amount, f.amount_basis),
    amountBand: f.amount_band,
    monthlyRevenue: monthly,
    monthlyRevenueBand: f.monthly_revenue_band,
    tibMonths: givenFigure(f.tib_months, f.tib_months_basis),
    timeInBusinessBand: f.time_in_business_band,
    creditScoreBand: f.credit_score_band as CreditScoreBand | null,
    productFamily: facts.product_family as ProductFamily | null,
    companyNotActive: notActiveStatus(facts.registry),
    entityType: facts.entity_type ?? null,
    held: facts.held,
  };
}
