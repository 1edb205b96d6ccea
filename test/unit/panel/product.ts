import type { PanelProduct } from "../../../src/domain/panel/product";

/** A GB term loan with no criteria but its amounts, to be narrowed by each test. */
export const product = (over: Partial<PanelProduct> & Pick<PanelProduct, "id">): PanelProduct => ({
  lenderOrganisationId: "org_lender",
  productFamily: "business_loan",
  label: "Term loan 12-60 months",
  markets: ["GB"],
  minAmount: 10_000,
  maxAmount: 250_000,
  minMonthlyRevenue: 0,
  minMonthsTrading: 0,
  minCreditScoreBand: null,
  excludedIndustries: [],
  purposes: [],
  pricing: { annualRatePct: { min: 8, max: 18 }, factorRate: null, termMonths: { min: 12, max: 60 }, feePct: 2 },
  ...over,
});
