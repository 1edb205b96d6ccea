import type { PanelProduct } from "./product";

/**
 * A panel product written as the operator API's PUT body (`PUT
 * /admin/v1/organisations/{id}/products`). The dev seed and the tests load the
 * demo panel through the API with it.
 */
export const productBody = (p: Omit<PanelProduct, "lenderOrganisationId">) => ({
  id: p.id,
  product_family: p.productFamily,
  label: p.label,
  markets: p.markets,
  min_amount: p.minAmount,
  max_amount: p.maxAmount,
  min_monthly_revenue: p.minMonthlyRevenue,
  min_months_trading: p.minMonthsTrading,
  min_credit_score_band: p.minCreditScoreBand,
  excluded_industries: p.excludedIndustries,
  purposes: p.purposes,
  pricing: {
    ...(p.pricing.annualRatePct ? { annual_rate_pct: p.pricing.annualRatePct } : {}),
    ...(p.pricing.factorRate ? { factor_rate: p.pricing.factorRate } : {}),
    term_months: p.pricing.termMonths,
    fee_pct: p.pricing.feePct,
  },
  requires: (p.requires ?? []).map((r) => ({ field: r.field, ...(r.when ? { when: r.when } : {}) })),
});
