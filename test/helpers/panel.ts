import { DEMO_LENDERS } from "../../src/dev/demo-panel";
import { productBody } from "../../src/domain/panel/product-body";

export { productBody };
import { env } from "cloudflare:workers";
import { invalidatePanelCache } from "../../src/services/panel/panel-cache";
import { admin } from "./api";
import { createOrganisation } from "./seed";

export async function putProducts(organisationId: string, products: unknown[]) {
  return admin("PUT", `/organisations/${organisationId}/products`, { products });
}

/**
 * The panel is every lender's products, and the files of a worker share its storage (vitest.config.mts),
 * so products another file put would match this file's leads too. This leaves in D1 only these lenders'
 * products (none: an empty panel), as test/routing/helpers.ts `twoLenderPanel` does, and empties the
 * panel cache through its public `invalidatePanelCache`: the loader, matcher, routing and cache stay the
 * real ones, and the panel is narrowed through data. The files of a worker run one after another, and
 * each puts the products it relies on itself; a test that needs its own products after this puts them again.
 */
export async function panelOf(...lenderOrganisationIds: string[]) {
  const keep = lenderOrganisationIds.map(() => "?").join(", ");
  await env.DB.prepare(`delete from panel_products${keep ? ` where lender_organisation_id not in (${keep})` : ""}`)
    .bind(...lenderOrganisationIds)
    .run();
  invalidatePanelCache();
}

/**
 * Loads the demo panel through the operator API, with a cold panel cache. Other files' lenders share
 * the storage: callers that count matches narrow the panel with `panelOf(...Object.values(lenders))`.
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

/** A valid product body, for tests that vary one field. */
export const termLoan = {
  id: "gb-term-loan",
  product_family: "business_loan",
  label: "Term loan 6-36 months",
  markets: ["GB"],
  min_amount: 10_000,
  max_amount: 250_000,
  min_monthly_revenue: 10_000,
  min_months_trading: 24,
  min_credit_score_band: null,
  excluded_industries: ["gambling"],
  purposes: [],
  pricing: { annual_rate_pct: { min: 8, max: 18 }, term_months: { min: 6, max: 36 }, fee_pct: 2 },
};
