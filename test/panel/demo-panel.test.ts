import { describe, expect, it } from "vitest";
import { ProductInput } from "../../src/api/admin/products/routes";
import { DEMO_LENDERS } from "../../src/dev/demo-panel";
import { productCurrency } from "../../src/domain/panel/product";
import { MARKETS } from "../../src/domain/reference/markets";
import { productBody } from "../helpers/panel";

describe("the demo panel", () => {
  it("passes the operator API's validation, product by product", () => {
    for (const lender of DEMO_LENDERS) {
      expect(lender.name).toMatch(/^Demo Lender [A-Z]$/);
      for (const p of lender.products) {
        const parsed = ProductInput.safeParse(productBody(p));
        expect(parsed.success, `${p.id}: ${parsed.error?.message}`).toBe(true);
      }
    }
  });

  it("gives every open or integrated market several product families", () => {
    const panel = DEMO_LENDERS.flatMap((lender) => lender.products);
    for (const market of MARKETS) {
      const families = new Set(panel.filter((p) => p.markets.includes(market.country)).map((p) => p.productFamily));
      expect(families.size, market.country).toBeGreaterThanOrEqual(3);
    }
  });

  it("keeps ids unique within each lender and labels free of provider names", () => {
    for (const lender of DEMO_LENDERS) {
      const ids = lender.products.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const p of lender.products) {
        expect(p.label).not.toMatch(/demo|lender/i);
        expect(productCurrency(p)).toBe(MARKETS.find((m) => m.country === p.markets[0])!.currency);
      }
    }
  });

  it("gives every demo lender products, under a name of its own", () => {
    expect(new Set(DEMO_LENDERS.map((l) => l.name)).size).toBe(DEMO_LENDERS.length);
    for (const lender of DEMO_LENDERS) expect(lender.products.length, lender.name).toBeGreaterThan(0);
  });
});
