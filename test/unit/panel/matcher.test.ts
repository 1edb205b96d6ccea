import { describe, expect, it } from "vitest";
import { matchBusiness, refusedCountryResult, type BusinessFacts } from "../../../src/domain/panel/matcher";
import { product } from "./product";
import { marketFor } from "../../../src/domain/reference/markets";

const GB = marketFor("GB");
const US = marketFor("US");


const loan = product({ id: "loan" });
const facts = (over: Partial<BusinessFacts> = {}): BusinessFacts => ({ market: GB, purpose: "working_capital", amount: 50_000, ...over });
const codes = (r: { reasons: { code: string }[] }) => r.reasons.map((x) => x.code);

describe("matchBusiness: amount limits", () => {
  it.each([
    [10_000, true],
    [250_000, true],
    [9_999, false],
    [9_999.99, false],
    [250_001, false],
    [250_000.01, false],
  ])("amount %d fits %s (limits are inclusive)", (amount, fits) => {
    const result = matchBusiness(facts({ amount }), [loan]);
    expect(result.eligible).toBe(fits);
    expect(result.matchedOptions).toBe(fits ? 1 : 0);
  });

  it("says which limit excluded and the nearest one", () => {
    const below = matchBusiness(facts({ amount: 9_999 }), [loan]);
    expect(below.decision).toBe("no_options");
    expect(below.reasons).toEqual([{ code: "amount_below_minimum", detail: expect.stringContaining("10,000 GBP") }]);
    const above = matchBusiness(facts({ amount: 250_001 }), [loan]);
    expect(codes(above)).toEqual(["amount_above_maximum"]);
    expect(above.reasons[0].detail).toContain("250,000 GBP");
  });

  it("turns an amount band into its figure through bandFigure, keeping the basis", () => {
    // under_25k stands for 13,000 (midpoint of 1,000 and 25,000)
    const result = matchBusiness(facts({ amount: null, amountBand: "under_25k" }), [product({ id: "p", minAmount: 13_000 })]);
    expect(result.figures.amount).toEqual({ value: 13_000, basis: "band_midpoint" });
    expect(result.eligible).toBe(true);
    const tooHigh = matchBusiness(facts({ amount: null, amountBand: "under_25k" }), [product({ id: "p", minAmount: 13_001 })]);
    expect(codes(tooHigh)).toEqual(["amount_below_minimum"]);
    expect(tooHigh.reasons[0].detail).toContain("band midpoint");
  });

  it("uses the lower bound of the open top band", () => {
    const result = matchBusiness(facts({ amount: null, amountBand: "over_500k" }), [product({ id: "p", maxAmount: 500_000 })]);
    expect(result.figures.amount).toEqual({ value: 500_000, basis: "band_lower_bound" });
    expect(result.eligible).toBe(true);
  });

  it("prefers the figure to the band", () => {
    const result = matchBusiness(facts({ amount: 20_000, amountBand: "over_500k" }), [loan]);
    expect(result.figures.amount).toEqual({ value: 20_000, basis: "reported" });
  });
});

describe("matchBusiness: revenue, months trading and credit score", () => {
  const strict = product({ id: "strict", minMonthlyRevenue: 10_000, minMonthsTrading: 24 });

  it.each([
    [10_000, true],
    [9_999.99, false],
  ])("monthly revenue %d fits %s", (monthlyRevenue, fits) => {
    const result = matchBusiness(facts({ monthlyRevenue, tibMonths: 24 }), [strict]);
    expect(result.eligible).toBe(fits);
    if (!fits) expect(codes(result)).toEqual(["revenue_below_minimum"]);
  });

  it.each([
    [24, true],
    [23, false],
  ])("months trading %d fits %s", (tibMonths, fits) => {
    const result = matchBusiness(facts({ monthlyRevenue: 10_000, tibMonths }), [strict]);
    expect(result.eligible).toBe(fits);
    if (!fits) expect(codes(result)).toEqual(["time_in_business_below_minimum"]);
  });

  it("compares revenue and months-trading bands by the figure they stand for", () => {
    // 10k_25k → 17,500; 24m_60m → 42 months; 12m_24m → 18 months; under_10k → 5,000
    expect(matchBusiness(facts({ monthlyRevenueBand: "10k_25k", timeInBusinessBand: "24m_60m" }), [strict]).eligible).toBe(true);
    const short = matchBusiness(facts({ monthlyRevenueBand: "under_10k", timeInBusinessBand: "12m_24m" }), [strict]);
    expect(codes(short)).toEqual(["revenue_below_minimum", "time_in_business_below_minimum"]);
    expect(short.figures.monthlyRevenue).toEqual({ value: 5_000, basis: "band_midpoint" });
    expect(short.figures.tibMonths).toEqual({ value: 18, basis: "band_midpoint" });
    // over_60m stands for its lower bound, 60 months
    const veteran = matchBusiness(facts({ monthlyRevenue: 10_000, timeInBusinessBand: "over_60m" }), [product({ id: "p", minMonthsTrading: 60 })]);
    expect(veteran.eligible).toBe(true);
  });

  const usLoan = product({ id: "us", markets: ["US"], minCreditScoreBand: "670_739" });

  it.each([
    ["670_739", true],
    ["740_plus", true],
    ["580_669", false],
    ["below_500", false],
  ] as const)("US credit band %s against a 670_739 minimum fits %s", (creditScoreBand, fits) => {
    const result = matchBusiness(facts({ market: US, creditScoreBand }), [usLoan]);
    expect(result.eligible).toBe(fits);
    if (!fits) expect(codes(result)).toEqual(["credit_score_below_minimum"]);
  });

  it("ignores credit bands outside the US and Canada", () => {
    const gbWithMinimum = product({ id: "gb", minCreditScoreBand: "740_plus" });
    const result = matchBusiness(facts({ creditScoreBand: "below_500" }), [gbWithMinimum]);
    expect(result.eligible).toBe(true);
    expect(result.reasons).toEqual([]);
  });
});

describe("matchBusiness: the Unknown rule", () => {
  const strict = product({
    id: "strict",
    markets: ["US"],
    minMonthlyRevenue: 10_000,
    minMonthsTrading: 12,
    minCreditScoreBand: "670_739",
    excludedIndustries: ["gambling"],
    purposes: ["equipment"],
  });

  it("never invents a missing figure: it excludes nothing and says what was not checked", () => {
    const result = matchBusiness({ market: US }, [strict]);
    expect(result.eligible).toBe(true);
    expect(result.figures).toEqual({ amount: null, monthlyRevenue: null, tibMonths: null });
    expect(codes(result)).toEqual([
      "amount_unknown",
      "monthly_revenue_unknown",
      "time_in_business_unknown",
      "credit_score_unknown",
      "industry_unknown",
      "purpose_unknown",
    ]);
  });

  it("reports an unknown only where some product has that criterion", () => {
    const result = matchBusiness(facts({ monthlyRevenue: null, tibMonths: null }), [loan]);
    expect(codes(result)).toEqual([]);
  });

  it("still excludes on the facts it does hold", () => {
    const result = matchBusiness({ market: US, amount: 50_000, monthlyRevenue: 5_000 }, [strict]);
    expect(result.eligible).toBe(false);
    expect(codes(result)).toContain("revenue_below_minimum");
    expect(codes(result)).toContain("time_in_business_unknown");
  });
});

describe("matchBusiness: industries, purposes and markets", () => {
  it("excludes an excluded industry and keeps the rest", () => {
    const panel = [product({ id: "a", excludedIndustries: ["gambling", "real_estate"] }), product({ id: "b", productFamily: "line_of_credit" })];
    const result = matchBusiness(facts({ industry: "gambling" }), panel);
    expect(result.matchedProducts.map((p) => p.productId)).toEqual(["b"]);
    expect(codes(result)).toEqual(["industry_excluded"]);
    expect(result.reasons[0].detail).toContain("Gambling");
    expect(matchBusiness(facts({ industry: "retail" }), panel).matchedOptions).toBe(2);
  });

  it("serves every purpose when a product lists none, and only its own when it lists some", () => {
    const assets = product({ id: "assets", productFamily: "asset_finance", purposes: ["equipment", "vehicle"] });
    expect(matchBusiness(facts({ purpose: "equipment" }), [assets]).eligible).toBe(true);
    const refused = matchBusiness(facts({ purpose: "tax_bill" }), [assets]);
    expect(refused.eligible).toBe(false);
    expect(codes(refused)).toEqual(["purpose_not_served"]);
    expect(matchBusiness(facts({ purpose: "tax_bill" }), [loan]).eligible).toBe(true);
  });

  it("answers a market without products out_of_scope with market_not_served", () => {
    const result = matchBusiness(facts({ market: marketFor("PL") }), [loan]);
    expect(result).toMatchObject({ eligible: false, decision: "out_of_scope", matchedOptions: 0, indicativeAmount: null, currency: "EUR" });
    expect(codes(result)).toEqual(["market_not_served"]);
  });

  it("matches a product in each of the markets it serves", () => {
    const euro = product({ id: "eu", markets: ["IE", "FR"] });
    expect(matchBusiness(facts({ market: marketFor("FR") }), [euro]).eligible).toBe(true);
    expect(matchBusiness(facts({ market: marketFor("NL") }), [euro]).decision).toBe("out_of_scope");
  });

  it.each(["Germany", "Italy"])("answers %s out_of_scope with country_refused", (name) => {
    const result = refusedCountryResult(name, "EUR");
    expect(result).toMatchObject({ eligible: false, decision: "out_of_scope", currency: "EUR", matchedOptions: 0, productFamilies: [], indicativeAmount: null });
    expect(codes(result)).toEqual(["country_refused"]);
  });
});

describe("matchBusiness: the result", () => {
  const panel = [
    product({ id: "loan-a", lenderOrganisationId: "org_a", minAmount: 10_000, maxAmount: 250_000 }),
    product({ id: "loan-b", lenderOrganisationId: "org_b", minAmount: 25_000, maxAmount: 500_000 }),
    product({ id: "loc", lenderOrganisationId: "org_b", productFamily: "line_of_credit", label: "Revolving line of credit", minAmount: 5_000, maxAmount: 100_000 }),
    product({ id: "assets", productFamily: "asset_finance", purposes: ["equipment"] }),
  ];

  it("groups options by family, counts them and spans the matched limits", () => {
    const result = matchBusiness(facts({ amount: 50_000 }), panel);
    expect(result.decision).toBe("options_available");
    expect(result.matchedOptions).toBe(3);
    expect(result.productFamilies).toEqual([
      { product_family: "business_loan", label: "Business loan", options: 2 },
      { product_family: "line_of_credit", label: "Line of credit", options: 1 },
    ]);
    expect(result.indicativeAmount).toEqual({ min: 5_000, max: 500_000, currency: "GBP", basis: "panel_limits" });
    expect(result.matchedProducts.map((p) => [p.productId, p.lenderOrganisationId])).toEqual([
      ["loan-a", "org_a"],
      ["loan-b", "org_b"],
      ["loc", "org_b"],
    ]);
    expect(codes(result)).toEqual(["purpose_not_served"]);
  });

  it("narrows to a preferred family when it fits, and never empties the match for it", () => {
    const preferred = matchBusiness(facts({ productFamily: "line_of_credit" }), panel);
    expect(preferred.matchedProducts.map((p) => p.productId)).toEqual(["loc"]);
    const unavailable = matchBusiness(facts({ productFamily: "commercial_mortgage" }), panel);
    expect(unavailable.matchedOptions).toBe(3);
    expect(codes(unavailable)).toContain("product_family_unavailable");
  });

  it("answers no_options when the market is served but nothing fits", () => {
    const result = matchBusiness(facts({ amount: 1_000_000 }), panel);
    expect(result).toMatchObject({ eligible: false, decision: "no_options", productFamilies: [], indicativeAmount: null });
    expect(codes(result)).toEqual(["amount_above_maximum", "purpose_not_served"]);
  });
});

describe("matchBusiness: more boundaries", () => {
  it.each([
    // 25k_50k stands for 37,500
    [{ maxAmount: 37_500 }, true],
    [{ maxAmount: 37_499.99 }, false],
    [{ minAmount: 37_500 }, true],
    [{ minAmount: 37_500.01 }, false],
  ])("an amount band's figure against the limits %o fits %s", (limits, fits) => {
    const result = matchBusiness(facts({ amount: null, amountBand: "25k_50k" }), [product({ id: "p", ...limits })]);
    expect(result.eligible).toBe(fits);
    if (!fits) expect(result.reasons[0].detail).toContain("(band midpoint)");
  });

  it.each([
    // 10k_25k stands for 17,500; 6m_12m for 9 months
    [17_500, 9, true],
    [17_500.01, 9, false],
    [17_500, 10, false],
  ])("a revenue band against a %d minimum and a months band against %d fits %s", (minMonthlyRevenue, minMonthsTrading, fits) => {
    const result = matchBusiness(facts({ monthlyRevenueBand: "10k_25k", timeInBusinessBand: "6m_12m" }), [product({ id: "p", minMonthlyRevenue, minMonthsTrading })]);
    expect(result.eligible).toBe(fits);
  });

  it("holds Canada to credit minimums like the United States, band for band", () => {
    const ca = product({ id: "ca", markets: ["CA"], minCreditScoreBand: "580_669" });
    const CA = marketFor("CA");
    expect(matchBusiness(facts({ market: CA, creditScoreBand: "580_669" }), [ca]).eligible).toBe(true);
    const weak = matchBusiness(facts({ market: CA, creditScoreBand: "500_579" }), [ca]);
    expect(weak.eligible).toBe(false);
    expect(weak.reasons).toEqual([{ code: "credit_score_below_minimum", detail: expect.stringContaining("580_669") }]);
    // Unknown: nothing excluded, and the reason says so.
    const unknown = matchBusiness(facts({ market: CA }), [ca]);
    expect(unknown.eligible).toBe(true);
    expect(codes(unknown)).toEqual(["credit_score_unknown"]);
  });

  it("treats a zero revenue as a figure, not as unknown", () => {
    const result = matchBusiness(facts({ monthlyRevenue: 0, tibMonths: 0 }), [product({ id: "p", minMonthlyRevenue: 1, minMonthsTrading: 1 })]);
    expect(codes(result)).toEqual(["revenue_below_minimum", "time_in_business_below_minimum"]);
  });

  it("keeps the basis of a figure that is not reported in the reason", () => {
    const result = matchBusiness(facts({ monthlyRevenue: { value: 5_000, basis: "annual_turnover" } }), [product({ id: "p", minMonthlyRevenue: 10_000 })]);
    expect(result.reasons[0].detail).toContain("5,000 GBP (annual turnover)");
  });

  it("answers no_options when every product of the market excludes the industry", () => {
    const panel = [product({ id: "a", excludedIndustries: ["gambling"] }), product({ id: "b", productFamily: "line_of_credit", excludedIndustries: ["gambling", "retail"] })];
    const result = matchBusiness(facts({ industry: "gambling" }), panel);
    expect(result).toMatchObject({ eligible: false, decision: "no_options", matchedOptions: 0, indicativeAmount: null });
    expect(result.reasons).toEqual([{ code: "industry_excluded", detail: "Gambling is an industry 2 options do not fund." }]);
  });

  it("never lets a product serve a market it does not list, even when everything else fits", () => {
    const gbOnly = product({ id: "gb" });
    const result = matchBusiness(facts({ market: US, creditScoreBand: "740_plus" }), [gbOnly]);
    expect(result).toMatchObject({ decision: "out_of_scope", currency: "USD" });
    expect(codes(result)).toEqual(["market_not_served"]);
  });

  it("is pure: the same facts and panel give the same answer, and the panel is not changed", () => {
    const panel = [loan, product({ id: "b", excludedIndustries: ["retail"] })];
    const copy = structuredClone(panel);
    const one = matchBusiness(facts({ industry: "retail" }), panel);
    expect(matchBusiness(facts({ industry: "retail" }), panel)).toEqual(one);
    expect(panel).toEqual(copy);
  });
});
