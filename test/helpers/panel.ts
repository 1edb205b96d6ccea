import { DEMO_LENDERS, type DemoProduct } from "../../src/domain/panel/demo-panel";
import { invalidatePanelCache } from "../../src/services/panel-cache";
import { admin } from "./api";
import { createOrganisation } from "./seed";

/** A domain product as the operator API's PUT body writes it. */
export const productBody = (p: DemoProduct) => ({
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
});

export async function putProducts(organisationId: string, products: unknown[]) {
  return admin("PUT", `/organisations/${organisationId}/products`, { products });
}

/**
 * Loads the demo panel through the operator API. Storage is isolated per test
 * but the panel cache lives in the isolate, so callers start from a cold cache.
 */
export async function loadDemoPanel() {
  invalidatePanelCache();
  const lenders: Record<string, string> = {};
  for (const lender of DEMO_LENDERS) {
    const organisation = await createOrganisation("lender", lender.name);
    const res = await putProducts(organisation.id, lender.products.map(productBody));
    if (res.status !== 200) throw new Error(`products: ${res.status} ${res.text}`);
    lenders[lender.name] = organisation.id;
  }
  return lenders;
}
