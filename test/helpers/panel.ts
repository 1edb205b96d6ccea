import { DEMO_LENDERS } from "../../src/dev/demo-panel";
import { productBody } from "../../src/domain/panel/product-body";

export { productBody };
import { database } from "../../src/db/client";
import { listPanel } from "../../src/db/panel/panel";
import { invalidatePanelCache, setPanelLoader } from "../../src/services/panel/panel-cache";
import { admin } from "./api";
import { createOrganisation } from "./seed";

export async function putProducts(organisationId: string, products: unknown[]) {
  return admin("PUT", `/organisations/${organisationId}/products`, { products });
}

/**
 * The panel is every lender's products, and the files of a worker share its storage (vitest.config.mts),
 * so products another file put would match this file's leads too. This makes the panel cache read D1 as
 * it always does and keep only these lenders' products (none: an empty panel); the matcher, routing and
 * cache stay the real ones. Undo it in the file's `afterEach(() => setPanelLoader(null))`.
 */
export function panelOf(...lenderOrganisationIds: string[]) {
  setPanelLoader(async (d1) => (await listPanel(database(d1))).filter((p) => lenderOrganisationIds.includes(p.lenderOrganisationId)));
}

export { setPanelLoader };

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
