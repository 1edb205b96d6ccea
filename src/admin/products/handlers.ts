import { database } from "../../db/client";
import { productCurrency, type PanelProduct } from "../../domain/panel/product";
import type { Router } from "../../lib/router";
import { lenderProducts, setLenderProducts } from "../../services/panel";
import { listProductsRoute, replaceProductsRoute } from "./routes";

const productView = (p: PanelProduct) => ({
  id: p.id,
  product_family: p.productFamily,
  label: p.label,
  markets: p.markets,
  currency: productCurrency(p),
  min_amount: p.minAmount,
  max_amount: p.maxAmount,
  min_monthly_revenue: p.minMonthlyRevenue,
  min_months_trading: p.minMonthsTrading,
  min_credit_score_band: p.minCreditScoreBand,
  excluded_industries: p.excludedIndustries,
  purposes: p.purposes,
  pricing: {
    annual_rate_pct: p.pricing.annualRatePct,
    factor_rate: p.pricing.factorRate,
    term_months: p.pricing.termMonths,
    fee_pct: p.pricing.feePct,
  },
});

export function registerProductRoutes(router: Router) {
  router.openapi(replaceProductsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const products = await setLenderProducts(database(c.env.DB), id, c.req.valid("json").products);
    return c.json({ organisation_id: id, products: products.map(productView) }, 200);
  });

  router.openapi(listProductsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const products = await lenderProducts(database(c.env.DB), id);
    return c.json({ organisation_id: id, products: products.map(productView) }, 200);
  });
}
