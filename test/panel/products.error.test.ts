import { describe, expect, it } from "vitest";
import { admin, call } from "../helpers/api";
import { putProducts, termLoan } from "../helpers/panel";
import { createOrganisation, expectProblem } from "../helpers/seed";

type Body = Record<string, any>;
const withPricing = (pricing: Body) => ({ ...termLoan, pricing: { ...termLoan.pricing, ...pricing } });

describe("PUT /admin/v1/organisations/{id}/products: refusals", () => {
  it("refuses a partner organisation with 400 naming the id", async () => {
    const partner = await createOrganisation("partner");
    for (const res of [await putProducts(partner.id, [termLoan]), await admin("GET", `/organisations/${partner.id}/products`)]) {
      expectProblem(res, 400, "invalid_request");
      expect(res.body.error.field).toBe("param.id");
      expect(res.body.detail).toContain(partner.id);
    }
  });

  it("answers an unknown organisation with 404", async () => {
    expectProblem(await putProducts("org_nope", [termLoan]), 404, "not_found");
    expectProblem(await admin("GET", "/organisations/org_nope/products"), 404, "not_found");
  });

  it("needs the operator token", async () => {
    const lender = await createOrganisation("lender");
    expectProblem(await call("PUT", `/admin/v1/organisations/${lender.id}/products`, { body: { products: [] } }), 401, "unauthorized");
  });

  it.each<[string, Body, string]>([
    ["an unknown top-level key", { products: [], extra: 1 }, "extra"],
    ["a missing list", {}, "products"],
    ["an unknown product key", { products: [{ ...termLoan, lender_name: "X" }] }, "products.0.lender_name"],
    ["an unknown family", { products: [{ ...termLoan, product_family: "payday" }] }, "products.0.product_family"],
    ["an empty label", { products: [{ ...termLoan, label: "  " }] }, "products.0.label"],
    ["no markets", { products: [{ ...termLoan, markets: [] }] }, "products.0.markets"],
    ["an unknown market", { products: [{ ...termLoan, markets: ["GB", "ZZ"] }] }, "products.0.markets.1"],
    ["a refused market", { products: [{ ...termLoan, markets: ["DE"] }] }, "products.0.markets.0"],
    ["markets of two currencies", { products: [{ ...termLoan, markets: ["GB", "IE"] }] }, "products.0.markets"],
    ["a negative minimum", { products: [{ ...termLoan, min_amount: -1 }] }, "products.0.min_amount"],
    ["a string amount", { products: [{ ...termLoan, max_amount: "1000" }] }, "products.0.max_amount"],
    ["min above max", { products: [{ ...termLoan, min_amount: 300_000 }] }, "products.0.max_amount"],
    ["a negative revenue minimum", { products: [{ ...termLoan, min_monthly_revenue: -5 }] }, "products.0.min_monthly_revenue"],
    ["fractional months", { products: [{ ...termLoan, min_months_trading: 6.5 }] }, "products.0.min_months_trading"],
    ["an unknown credit band", { products: [{ ...termLoan, min_credit_score_band: "800_plus" }] }, "products.0.min_credit_score_band"],
    ["an unknown industry", { products: [{ ...termLoan, excluded_industries: ["crypto"] }] }, "products.0.excluded_industries.0"],
    ["an unknown purpose", { products: [{ ...termLoan, purposes: ["holiday"] }] }, "products.0.purposes.0"],
    ["both rate kinds", { products: [withPricing({ factor_rate: { min: 1.1, max: 1.2 } })] }, "products.0.pricing.annual_rate_pct"],
    ["no rate", { products: [{ ...termLoan, pricing: { term_months: { min: 6, max: 12 }, fee_pct: 1 } }] }, "products.0.pricing.annual_rate_pct"],
    ["a rate range upside down", { products: [withPricing({ annual_rate_pct: { min: 20, max: 10 } })] }, "products.0.pricing.annual_rate_pct.max"],
    ["a factor below 1", { products: [{ ...termLoan, pricing: { factor_rate: { min: 0.9, max: 1.2 }, term_months: { min: 3, max: 6 }, fee_pct: 0 } }] }, "products.0.pricing.factor_rate.min"],
    ["a zero term", { products: [withPricing({ term_months: { min: 0, max: 12 } })] }, "products.0.pricing.term_months.min"],
    ["a term range upside down", { products: [withPricing({ term_months: { min: 36, max: 6 } })] }, "products.0.pricing.term_months.max"],
    ["a negative fee", { products: [withPricing({ fee_pct: -1 })] }, "products.0.pricing.fee_pct"],
    ["an unknown pricing key", { products: [withPricing({ apr: 5 })] }, "products.0.pricing.apr"],
    ["an unknown range key", { products: [withPricing({ term_months: { min: 6, max: 12, step: 6 } })] }, "products.0.pricing.term_months.step"],
    ["a bad id", { products: [{ ...termLoan, id: "has space" }] }, "products.0.id"],
    ["a duplicate id", { products: [termLoan, termLoan] }, "products.1.id"],
  ])("refuses %s with 400 naming the field", async (_label, body, field) => {
    const lender = await createOrganisation("lender");
    const res = await admin("PUT", `/organisations/${lender.id}/products`, body);
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });

  it("refuses non-finite numbers (sent as JSON they can only be huge literals)", async () => {
    const lender = await createOrganisation("lender");
    const raw = JSON.stringify({ products: [termLoan] }).replace('"max_amount":250000', '"max_amount":1e999');
    const res = await call("PUT", `/admin/v1/organisations/${lender.id}/products`, {
      rawBody: raw,
      contentType: "application/json",
      headers: { Authorization: "Bearer test-admin-token" },
    });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("products.0.max_amount");
  });

  it("leaves the stored list untouched when refusing", async () => {
    const lender = await createOrganisation("lender");
    await putProducts(lender.id, [termLoan]);
    await putProducts(lender.id, [{ ...termLoan, min_amount: -1 }]);
    expect((await admin("GET", `/organisations/${lender.id}/products`)).body.products).toHaveLength(1);
  });
});
