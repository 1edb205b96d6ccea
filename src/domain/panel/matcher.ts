/**
 * The matcher: which panel products a business fits. One pure function used
 * by prequalification (indicative) and by submit (routing), so the two can
 * never disagree. No I/O: the caller passes the panel.
 *
 * Unknown rule: a fact the service does not hold is never invented. An
 * unknown fact excludes nothing; every product criterion it would have been
 * tested against is left unchecked and the result carries a `*_unknown`
 * reason saying so (only when some product in the market has such a
 * criterion). A band stands for a figure only through `bandFigure`, and the
 * figure keeps the band's basis.
 */
import { bandFigure, bandRank, findBand, type BandFigureBasis } from "../reference/bands";
import { countryProblem, type Market } from "../reference/markets";
import {
  CREDIT_SCORE_BANDS,
  FUNDING_AMOUNT_BANDS,
  INDUSTRIES,
  PRODUCT_FAMILIES,
  PURPOSES,
  REVENUE_BANDS,
  TIME_IN_BUSINESS_BANDS,
  type Band,
  type CreditScoreBand,
  type Industry,
  type ProductFamily,
  type Purpose,
} from "../reference/values";
import type { PanelProduct, ProductPricing } from "./product";
import { missingRequirements, needsFor, requirementLabel, type Need, type RequirementField } from "./requirements";

/** Where a figure came from; band bases come from `bandFigure`. */
export type FigureBasis = "reported" | "statements" | "register" | "filed_accounts" | "annual_turnover" | BandFigureBasis;

export interface Figure {
  value: number;
  basis: FigureBasis;
}

/**
 * What the service holds about the business. `null` or absent means unknown.
 * A figure beats its band; a bare number is a reported figure.
 */
export interface BusinessFacts {
  market: Market;
  industry?: Industry | null;
  purpose?: Purpose | null;
  amount?: Figure | number | null;
  amountBand?: string | null;
  monthlyRevenue?: Figure | number | null;
  monthlyRevenueBand?: string | null;
  tibMonths?: Figure | number | null;
  timeInBusinessBand?: string | null;
  /** Read only in markets that carry a credit score (United States, Canada). */
  creditScoreBand?: CreditScoreBand | null;
  /** A preference, not a filter: see `matchBusiness`. */
  productFamily?: ProductFamily | null;
  /**
   * The company register's status when the register says the company is not
   * active (dissolved, in liquidation…; src/domain/registers/facts.ts); null
   * when it is active or not known. Such a company gets no options.
   */
  companyNotActive?: string | null;
  /** The company type, which a product's requirement may be conditioned on; null when unknown. */
  entityType?: string | null;
  /**
   * The requirement fields the application holds (./requirements.ts `heldRequirements`); none when
   * absent, as for a prequalification, which carries no persons or documents.
   */
  held?: ReadonlySet<RequirementField>;
}

export const MATCH_DECISIONS = ["options_available", "no_options", "out_of_scope"] as const;
export type MatchDecision = (typeof MATCH_DECISIONS)[number];

/** Reason codes, in the order they are reported. */
export const REASON_CODES = [
  "country_refused",
  "market_not_served",
  "company_not_active",
  "amount_below_minimum",
  "amount_above_maximum",
  "revenue_below_minimum",
  "time_in_business_below_minimum",
  "credit_score_below_minimum",
  "industry_excluded",
  "purpose_not_served",
  "requirements_not_met",
  "product_family_unavailable",
  "amount_unknown",
  "monthly_revenue_unknown",
  "time_in_business_unknown",
  "credit_score_unknown",
  "industry_unknown",
  "purpose_unknown",
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export interface Reason {
  code: ReasonCode;
  detail: string;
}

/** Internal: what routing needs. Never shown to partners (it names the lender). */
export interface MatchedProduct {
  productId: string;
  lenderOrganisationId: string;
  productFamily: ProductFamily;
  label: string;
  minAmount: number;
  maxAmount: number;
  pricing: ProductPricing;
}

/** Structural, in the API's own shape (`options` on a lead, `product_families` on a prequalification). */
export interface FamilyOptions {
  product_family: ProductFamily;
  label: string;
  options: number;
}

export interface MatchResult {
  eligible: boolean;
  decision: MatchDecision;
  /** The market currency, or for a refused country that country's own. */
  currency: string;
  matchedProducts: MatchedProduct[];
  productFamilies: FamilyOptions[];
  matchedOptions: number;
  indicativeAmount: { min: number; max: number; currency: string; basis: "panel_limits" } | null;
  reasons: Reason[];
  /** The figures the match used, each with its basis; null where unknown. */
  figures: { amount: Figure | null; monthlyRevenue: Figure | null; tibMonths: Figure | null };
  /** What the application could add for more options: products left out by their requirements alone. */
  needs: Need[];
}

type Criterion = Exclude<ReasonCode, "country_refused" | "market_not_served" | "company_not_active" | "product_family_unavailable" | `${string}_unknown`>;

const labelOf = (list: readonly { value: string; label: string }[], value: string) => list.find((e) => e.value === value)?.label ?? value;

/** A figure as given, or the one its band stands for; null when neither is known. */
function figureOf(given: Figure | number | null | undefined, band: string | null | undefined, bands: readonly Band[]): Figure | null {
  if (typeof given === "number") return { value: given, basis: "reported" };
  if (given) return given;
  const found = findBand(bands, band);
  return found ? bandFigure(found) : null;
}

/** Whether the market's businesses carry a credit score: the market table says so by requiring it. */
export const marketCarriesCreditScore = (market: Market) => market.required_for_submit.includes("credit_score_band");

/**
 * One formatter, made on first use and kept: `toLocaleString` builds a new ICU
 * formatter on every call, which was most of a prequalification's CPU (the
 * unlocks re-run the matcher and every run words its reasons). Same output.
 */
let moneyFormat: Intl.NumberFormat | undefined;
const money = (value: number, currency: string) =>
  `${(moneyFormat ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 })).format(value)} ${currency}`;

const basisNote = (figure: Figure) => (figure.basis === "reported" ? "" : ` (${figure.basis.replace(/_/g, " ")})`);

const options = (n: number) => `${n} option${n === 1 ? "" : "s"}`;

const emptyResult = (currency: string, figures: MatchResult["figures"]) => ({
  eligible: false,
  currency,
  matchedProducts: [],
  productFamilies: [],
  matchedOptions: 0,
  indicativeAmount: null,
  figures,
  needs: [] as Need[],
});

/** The answer for a country the service refuses (Germany, Italy), in that country's currency. */
export function refusedCountryResult(countryName: string, currency: string, input = countryName): MatchResult {
  return {
    ...emptyResult(currency, { amount: null, monthlyRevenue: null, tibMonths: null }),
    decision: "out_of_scope",
    reasons: [{ code: "country_refused", detail: countryProblem({ ok: false, reason: "refused", name: countryName }, input) }],
  };
}

/**
 * Matches a business against the panel. Every criterion is inclusive at its
 * bound: an amount exactly at a product's minimum or maximum fits, a revenue
 * or months trading exactly at the minimum fits, a credit band equal to the
 * minimum band fits.
 *
 * Decisions: `out_of_scope` when no product serves the market at all,
 * `no_options` when the market is served but every product excluded the
 * business, otherwise `options_available`.
 *
 * A product-family preference narrows the match to that family when at least
 * one product of it fits; when none does, every fitting product is kept and
 * `product_family_unavailable` says so (a preference never empties a match).
 */
/**
 * Monthly revenue read from an annual turnover: used only when no monthly
 * figure is held, by prequalification and by routing alike, so the same
 * business gets the same options from both.
 */
export const monthlyFromAnnualTurnover = (annualTurnover: number): Figure => ({
  value: Math.round((annualTurnover / 12) * 100) / 100,
  basis: "annual_turnover",
});

/**
 * The panel's products per market, in panel order, worked out once per panel:
 * the panel cache (services/panel/panel-cache.ts) hands every request of its
 * lifetime the same array, so a request looks its market up instead of
 * scanning the panel. A panel is read as it was when first indexed; the cache
 * replaces the array, never changes it.
 */
const panelsByMarket = new WeakMap<readonly PanelProduct[], Map<string, readonly PanelProduct[]>>();

export function productsInMarket(panel: readonly PanelProduct[], country: string): readonly PanelProduct[] {
  let byMarket = panelsByMarket.get(panel);
  if (!byMarket) {
    const lists = new Map<string, PanelProduct[]>();
    for (const product of panel) {
      for (const market of new Set(product.markets)) {
        const list = lists.get(market);
        if (list) list.push(product);
        else lists.set(market, [product]);
      }
    }
    byMarket = lists;
    panelsByMarket.set(panel, byMarket);
  }
  return byMarket.get(country) ?? [];
}

/** Which products of the market fit and why the others do not: the match before it is put into words. */
function assess(facts: BusinessFacts, panel: readonly PanelProduct[]) {
  const { market } = facts;
  const figures = {
    amount: figureOf(facts.amount, facts.amountBand, FUNDING_AMOUNT_BANDS),
    monthlyRevenue: figureOf(facts.monthlyRevenue, facts.monthlyRevenueBand, REVENUE_BANDS),
    tibMonths: figureOf(facts.tibMonths, facts.timeInBusinessBand, TIME_IN_BUSINESS_BANDS),
  };
  const creditApplies = marketCarriesCreditScore(market);
  const creditBand = creditApplies ? (facts.creditScoreBand ?? null) : null;
  const creditRank = creditBand ? bandRank(CREDIT_SCORE_BANDS, creditBand) : 0;
  const industry = facts.industry ?? null;
  const purpose = facts.purpose ?? null;
  const inMarket = productsInMarket(panel, market.country);

  const held = facts.held ?? NOTHING_HELD;
  const conditionFacts = { entityType: facts.entityType ?? null, amount: figures.amount?.value ?? null };
  /** Per product left out by its requirements alone, the fields it lacks. */
  const lacking: RequirementField[][] = [];
  const exclusions = new Map<Criterion, PanelProduct[]>();
  const unchecked = new Map<ReasonCode, number>();
  const notChecked = (code: ReasonCode) => unchecked.set(code, (unchecked.get(code) ?? 0) + 1);

  const fitting = inMarket.filter((product) => {
    let fits = true;
    const exclude = (code: Criterion, excluded: PanelProduct) => {
      fits = false;
      const list = exclusions.get(code);
      if (list) list.push(excluded);
      else exclusions.set(code, [excluded]);
    };

    if (!figures.amount) notChecked("amount_unknown");
    else if (figures.amount.value < product.minAmount) exclude("amount_below_minimum", product);
    else if (figures.amount.value > product.maxAmount) exclude("amount_above_maximum", product);

    if (product.minMonthlyRevenue > 0) {
      if (!figures.monthlyRevenue) notChecked("monthly_revenue_unknown");
      else if (figures.monthlyRevenue.value < product.minMonthlyRevenue) exclude("revenue_below_minimum", product);
    }

    if (product.minMonthsTrading > 0) {
      if (!figures.tibMonths) notChecked("time_in_business_unknown");
      else if (figures.tibMonths.value < product.minMonthsTrading) exclude("time_in_business_below_minimum", product);
    }

    if (creditApplies && product.minCreditScoreBand) {
      if (!creditBand) notChecked("credit_score_unknown");
      else if (creditRank < bandRank(CREDIT_SCORE_BANDS, product.minCreditScoreBand)) {
        exclude("credit_score_below_minimum", product);
      }
    }

    if (product.excludedIndustries.length > 0) {
      if (!industry) notChecked("industry_unknown");
      else if (product.excludedIndustries.includes(industry)) exclude("industry_excluded", product);
    }

    if (product.purposes.length > 0) {
      if (!purpose) notChecked("purpose_unknown");
      else if (!product.purposes.includes(purpose)) exclude("purpose_not_served", product);
    }

    if (product.requires && product.requires.length > 0) {
      const missing = missingRequirements(product.requires, conditionFacts, held);
      if (missing.length > 0) {
        if (fits) lacking.push(missing);
        exclude("requirements_not_met", product);
      }
    }

    return fits;
  });

  let matched = fitting;
  let familyUnavailable = false;
  if (facts.productFamily && fitting.length > 0) {
    const preferred = fitting.filter((p) => p.productFamily === facts.productFamily);
    if (preferred.length > 0) matched = preferred;
    else familyUnavailable = true;
  }
  return { figures, creditBand, industry, purpose, inMarket, exclusions, unchecked, matched, familyUnavailable, lacking, held };
}

const NOTHING_HELD: ReadonlySet<RequirementField> = new Set();

/** The match's needs: each set of fields that products lack alone, counted by matching again with it held. */
function needsOf(facts: BusinessFacts, panel: readonly PanelProduct[], lacking: RequirementField[][], held: ReadonlySet<RequirementField>, now: number): Need[] {
  return needsFor(lacking, now, (added) => matchedOptionCount({ ...facts, held: new Set([...held, ...added]) }, panel));
}

/**
 * How many options `matchBusiness` would answer, without wording its reasons:
 * the unlocks (./unlocks.ts) ask this of many nearby figures per request.
 */
export function matchedOptionCount(facts: BusinessFacts, panel: readonly PanelProduct[]): number {
  if (facts.companyNotActive) return 0;
  return assess(facts, panel).matched.length;
}

export function matchBusiness(facts: BusinessFacts, panel: readonly PanelProduct[]): MatchResult {
  const { market } = facts;
  const currency = market.currency;
  const { figures, creditBand, industry, purpose, inMarket, exclusions, unchecked, matched, familyUnavailable, lacking, held } = assess(facts, panel);

  if (inMarket.length === 0) {
    return {
      ...emptyResult(currency, figures),
      decision: "out_of_scope",
      reasons: [{ code: "market_not_served", detail: `No funding option serves ${market.name} at present.` }],
    };
  }

  // The register's word that the company no longer trades outweighs every product criterion.
  if (facts.companyNotActive) {
    return {
      ...emptyResult(currency, figures),
      decision: "no_options",
      reasons: [
        {
          code: "company_not_active",
          detail: `The company register gives the company's status as ${facts.companyNotActive}; no funding option is offered to a company that is not active.`,
        },
      ],
    };
  }

  const describe = (code: ReasonCode): string | null => {
    const excluded = exclusions.get(code as Criterion) ?? [];
    const n = excluded.length;
    const lowest = (pick: (p: PanelProduct) => number) => Math.min(...excluded.map(pick));
    const highest = (pick: (p: PanelProduct) => number) => Math.max(...excluded.map(pick));
    switch (code) {
      case "amount_below_minimum":
        return `The amount, ${money(figures.amount!.value, currency)}${basisNote(figures.amount!)}, is below the minimum of ${options(n)}; the lowest such minimum is ${money(lowest((p) => p.minAmount), currency)}.`;
      case "amount_above_maximum":
        return `The amount, ${money(figures.amount!.value, currency)}${basisNote(figures.amount!)}, is above the maximum of ${options(n)}; the highest such maximum is ${money(highest((p) => p.maxAmount), currency)}.`;
      case "revenue_below_minimum":
        return `Monthly revenue, ${money(figures.monthlyRevenue!.value, currency)}${basisNote(figures.monthlyRevenue!)}, is below the minimum of ${options(n)}; the lowest such minimum is ${money(lowest((p) => p.minMonthlyRevenue), currency)}.`;
      case "time_in_business_below_minimum":
        return `Time in business, ${figures.tibMonths!.value} months${basisNote(figures.tibMonths!)}, is below the minimum of ${options(n)}; the shortest such minimum is ${lowest((p) => p.minMonthsTrading)} months.`;
      case "credit_score_below_minimum": {
        const lowestBand = excluded.map((p) => p.minCreditScoreBand!).sort((a, b) => bandRank(CREDIT_SCORE_BANDS, a) - bandRank(CREDIT_SCORE_BANDS, b))[0];
        return `The credit score band ${creditBand} is below the minimum band of ${options(n)}; the lowest such minimum is ${lowestBand}.`;
      }
      case "industry_excluded":
        return `${labelOf(INDUSTRIES, industry!)} is an industry ${options(n)} do not fund.`;
      case "purpose_not_served":
        return `${labelOf(PURPOSES, purpose!)} is a purpose ${options(n)} do not fund.`;
      case "requirements_not_met": {
        const fields = [...new Set(excluded.flatMap((p) => missingRequirements(p.requires ?? [], { entityType: facts.entityType ?? null, amount: figures.amount?.value ?? null }, held)))];
        return `${options(n)} ${n === 1 ? "needs" : "need"} what the application does not hold yet: ${fields.map((f) => requirementLabel(f).toLowerCase()).join("; ")}.`;
      }
      case "product_family_unavailable":
        return `No ${labelOf(PRODUCT_FAMILIES, facts.productFamily!)} option fits; the other families that fit are shown.`;
      case "amount_unknown":
        return "The amount is not known, so no option's amount limits were checked.";
      case "monthly_revenue_unknown":
        return `Monthly revenue is not known, so the revenue minimum of ${options(unchecked.get(code)!)} was not checked.`;
      case "time_in_business_unknown":
        return `Time in business is not known, so the months-trading minimum of ${options(unchecked.get(code)!)} was not checked.`;
      case "credit_score_unknown":
        return `The credit score band is not known, so the credit minimum of ${options(unchecked.get(code)!)} was not checked.`;
      case "industry_unknown":
        return `The industry is not known, so the industry exclusions of ${options(unchecked.get(code)!)} were not checked.`;
      case "purpose_unknown":
        return `The purpose is not known, so the purposes of ${options(unchecked.get(code)!)} were not checked.`;
      default:
        return null;
    }
  };

  const reasons = REASON_CODES.filter(
    (code) => exclusions.has(code as Criterion) || unchecked.has(code) || (code === "product_family_unavailable" && familyUnavailable),
  ).map((code) => ({ code, detail: describe(code)! }));

  const needs = needsOf(facts, panel, lacking, held, matched.length);
  if (matched.length === 0) return { ...emptyResult(currency, figures), decision: "no_options", reasons, needs };

  return {
    eligible: true,
    decision: "options_available",
    currency,
    matchedProducts: matched.map((p) => ({
      productId: p.id,
      lenderOrganisationId: p.lenderOrganisationId,
      productFamily: p.productFamily,
      label: p.label,
      minAmount: p.minAmount,
      maxAmount: p.maxAmount,
      pricing: p.pricing,
    })),
    productFamilies: PRODUCT_FAMILIES.map((family) => ({
      product_family: family.value,
      label: family.label,
      options: matched.filter((p) => p.productFamily === family.value).length,
    })).filter((f) => f.options > 0),
    matchedOptions: matched.length,
    indicativeAmount: {
      min: Math.min(...matched.map((p) => p.minAmount)),
      max: Math.max(...matched.map((p) => p.maxAmount)),
      currency,
      basis: "panel_limits",
    },
    reasons,
    figures,
    needs,
  };
}
