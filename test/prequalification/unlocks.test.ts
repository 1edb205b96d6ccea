import { describe, expect, it } from "vitest";
import { matchBusiness, type BusinessFacts } from "../../src/domain/panel/matcher";
import type { PanelProduct } from "../../src/domain/panel/product";
import { product as panelProduct } from "../unit/panel/product";
import { marketFor } from "../../src/domain/reference/markets";
import { unlocksFor } from "../../src/domain/panel/unlocks";

// The unit tests' product factory; an id of its own when a case does not name one.
const product = (over: Partial<PanelProduct>): PanelProduct => panelProduct({ id: "p", ...over });

const panel = [
  product({ id: "a", minMonthsTrading: 6 }),
  product({ id: "b", minMonthsTrading: 12, productFamily: "merchant_cash_advance" }),
  product({ id: "c", minMonthsTrading: 24, minMonthlyRevenue: 20_000 }),
  product({ id: "d", minMonthsTrading: 24, minMonthlyRevenue: 10_000 }),
  product({ id: "e", minAmount: 100_000, maxAmount: 500_000 }),
];

const uk = marketFor("GB");
const unlocks = (facts: Omit<BusinessFacts, "market">, market = uk, products = panel) => {
  const full = { market, ...facts };
  return unlocksFor(full, products, matchBusiness(full, products));
};

describe("what would unlock more options", () => {
  it("names the nearest months-trading threshold that adds options, and how many", () => {
    const found = unlocks({ purpose: "working_capital", amount: 50_000, monthlyRevenue: 15_000, tibMonths: 8 });
    expect(found).toContainEqual({ field: "trading.tib_months", needed: 12, options_added: 1 });
  });

  it("skips a threshold that adds nothing on its own (another criterion still excludes) for the next that does", () => {
    // At 24 months product c still needs 20,000 of revenue, d only 10,000: one added, from d.
    const found = unlocks({ purpose: "working_capital", amount: 50_000, monthlyRevenue: 15_000, tibMonths: 13 });
    expect(found).toContainEqual({ field: "trading.tib_months", needed: 24, options_added: 1 });
    expect(found).not.toContainEqual(expect.objectContaining({ field: "trading.monthly_revenue" }));
  });

  it("reads the revenue minimum and the amount limits, in the direction that is nearer", () => {
    const found = unlocks({ purpose: "working_capital", amount: 90_000, monthlyRevenue: 15_000, tibMonths: 30 });
    expect(found).toContainEqual({ field: "trading.monthly_revenue", needed: 20_000, options_added: 1 });
    expect(found).toContainEqual({ field: "funding.amount", needed: 100_000, options_added: 1 });
  });

  it("has nothing to unlock from a figure that is unknown, or where every option already fits", () => {
    expect(unlocks({ purpose: "working_capital", amount: 150_000, monthlyRevenue: 50_000, tibMonths: 60 })).toEqual([]);
    expect(unlocks({ purpose: "working_capital", amount: 50_000 }).map((u) => u.field)).not.toContain("trading.tib_months");
  });

  it("offers a higher credit score band only where the market carries one", () => {
    const us = marketFor("US");
    const usPanel = [product({ id: "u1", markets: ["US"] }), product({ id: "u2", markets: ["US"], minCreditScoreBand: "670_739" })];
    const found = unlocks({ purpose: "working_capital", amount: 50_000, creditScoreBand: "580_669" }, us, usPanel);
    expect(found).toEqual([{ field: "trading.credit_score_band", needed: "670_739", options_added: 1 }]);
    expect(unlocks({ purpose: "working_capital", amount: 50_000, creditScoreBand: "580_669" }, uk, panel).map((u) => u.field)).not.toContain("trading.credit_score_band");
  });

  it("never names a product or its provider", () => {
    const found = unlocks({ purpose: "working_capital", amount: 90_000, monthlyRevenue: 15_000, tibMonths: 8 });
    expect(JSON.stringify(found)).not.toMatch(/org_lender|Term loan|"id"/);
  });
});
