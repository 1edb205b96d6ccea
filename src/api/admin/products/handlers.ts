import { productCurrency, type PanelProduct } from "../../../domain/panel/product";
import { productBody } from "../../../domain/panel/product-body";
import type { Router } from "../../router";
import { lenderProducts, setLenderProducts } from "../../../services/panel/panel";
import { listProductsRoute, replaceProductsRoute } from "./routes";

/** The product as the operator wrote it, plus what the service derives: the currency and explicit nulls. */
const productView = (p: PanelProduct) => ({
  ...productBody(p),
  currency: productCurrency(p),
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
    const products = await setLenderProducts(c.get("deps"), id, c.req.valid("json").products);
    return c.json({ organisation_id: id, products: products.map(productView) }, 200);
  });

  router.openapi(listProductsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const products = await lenderProducts(c.get("deps"), id);
    return c.json({ organisation_id: id, products: products.map(productView) }, 200);
  });
}
