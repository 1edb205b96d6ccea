import { describe, expect, it } from "vitest";
import { admin } from "../helpers/api";
import { putProducts, termLoan } from "../helpers/panel";
import { createOrganisation } from "../helpers/seed";


describe("PUT /admin/v1/organisations/{id}/products", () => {
  it("stores the list and answers it, with the market currency and every field", async () => {
    const lender = await createOrganisation("lender");
    const res = await putProducts(lender.id, [termLoan]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organisation_id: lender.id,
      products: [
        {
          ...termLoan,
          currency: "GBP",
          requires: [],
          pricing: { annual_rate_pct: { min: 8, max: 18 }, factor_rate: null, term_months: { min: 6, max: 36 }, fee_pct: 2 },
        },
      ],
    });
    const read = await admin("GET", `/organisations/${lender.id}/products`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it("replaces the whole list, keeping the order given", async () => {
    const lender = await createOrganisation("lender");
    await putProducts(lender.id, [termLoan, { ...termLoan, id: "second" }]);
    const advance = {
      product_family: "merchant_cash_advance",
      label: "Merchant cash advance 3-12 months",
      markets: ["usa"],
      min_amount: 5_000,
      max_amount: 100_000,
      min_credit_score_band: "500_579",
      pricing: { factor_rate: { min: 1.1, max: 1.4 }, term_months: { min: 3, max: 12 }, fee_pct: 0 },
    };
    const res = await putProducts(lender.id, [advance, { ...termLoan, markets: ["Ireland", "FRA"] }]);
    expect(res.status).toBe(200);
    const [first, second] = res.body.products;
    expect(res.body.products).toHaveLength(2);
    // Defaults apply to what was left out; markets resolve to alpha-2; absent ids are generated.
    expect(first).toMatchObject({ markets: ["US"], currency: "USD", min_monthly_revenue: 0, min_months_trading: 0, excluded_industries: [], purposes: [] });
    expect(first.id).toMatch(/^prd_/);
    expect(second).toMatchObject({ id: "gb-term-loan", markets: ["IE", "FR"], currency: "EUR" });
    expect((await admin("GET", `/organisations/${lender.id}/products`)).body.products.map((p: any) => p.id)).toEqual([first.id, "gb-term-loan"]);
  });

  it("empties the list with an empty array", async () => {
    const lender = await createOrganisation("lender");
    await putProducts(lender.id, [termLoan]);
    expect((await putProducts(lender.id, [])).body.products).toEqual([]);
    expect((await admin("GET", `/organisations/${lender.id}/products`)).body.products).toEqual([]);
  });

  it("lets two lenders use the same product id", async () => {
    const [a, b] = [await createOrganisation("lender"), await createOrganisation("lender")];
    expect((await putProducts(a.id, [termLoan])).status).toBe(200);
    expect((await putProducts(b.id, [termLoan])).status).toBe(200);
    await putProducts(a.id, []);
    expect((await admin("GET", `/organisations/${b.id}/products`)).body.products).toHaveLength(1);
  });
});
