import { describe, expect, it } from "vitest";
import type { MatchedProduct } from "../../../src/domain/panel/matcher";
import { SANDBOX_OFFER_LIMIT, simulateOffers } from "../../../src/domain/panel/sandbox-offers";

const loan: MatchedProduct = {
  productId: "loan",
  lenderOrganisationId: "org_a",
  productFamily: "business_loan",
  label: "Term loan 12-60 months",
  minAmount: 10_000,
  maxAmount: 250_000,
  pricing: { annualRatePct: { min: 8, max: 18 }, factorRate: null, termMonths: { min: 12, max: 60 }, feePct: 2 },
};
const advance: MatchedProduct = {
  productId: "mca",
  lenderOrganisationId: "org_b",
  productFamily: "merchant_cash_advance",
  label: "Merchant cash advance 3-18 months",
  minAmount: 5_000,
  maxAmount: 100_000,
  pricing: { annualRatePct: null, factorRate: { min: 1.15, max: 1.45 }, termMonths: { min: 3, max: 18 }, feePct: 2.5 },
};
const issuedAt = new Date("2026-11-22T10:00:00.000Z");
const isCents = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

describe("simulateOffers", () => {
  it("is deterministic for a lead id and varies between leads", () => {
    const a = simulateOffers("lead-1", [loan, advance], 50_000, "GBP", issuedAt);
    expect(simulateOffers("lead-1", [loan, advance], 50_000, "GBP", issuedAt)).toEqual(a);
    const others = ["lead-2", "lead-3", "lead-4"].map((id) => simulateOffers(id, [loan, advance], 50_000, "GBP", issuedAt));
    expect(others.some((o) => JSON.stringify(o) !== JSON.stringify(a))).toBe(true);
  });

  it("stays within each product's price ranges and limits", () => {
    for (let i = 0; i < 200; i++) {
      const [l, m] = simulateOffers(`lead-${i}`, [loan, advance], 50_000, "GBP", issuedAt);
      expect(l.annualRatePct).toBeGreaterThanOrEqual(8);
      expect(l.annualRatePct).toBeLessThanOrEqual(18);
      expect(l.factorRate).toBeNull();
      expect(l.termMonths).toBeGreaterThanOrEqual(12);
      expect(l.termMonths).toBeLessThanOrEqual(60);
      expect(Number.isInteger(l.termMonths)).toBe(true);
      expect(m.factorRate).toBeGreaterThanOrEqual(1.15);
      expect(m.factorRate).toBeLessThanOrEqual(1.45);
      expect(m.annualRatePct).toBeNull();
      expect(m.termMonths).toBeGreaterThanOrEqual(3);
      expect(m.termMonths).toBeLessThanOrEqual(18);
    }
  });

  it("keeps the arithmetic consistent and in cents", () => {
    const [l, m] = simulateOffers("lead-arith", [loan, advance], 50_000, "GBP", issuedAt);
    expect(l.fees).toBe(1_000);
    expect(m.fees).toBe(1_250);
    expect(m.totalRepayment).toBeCloseTo(Math.round(50_000 * m.factorRate! * 100) / 100 + m.fees, 2);
    const r = l.annualRatePct! / 100 / 12;
    const instalment = Math.round(((50_000 * r) / (1 - (1 + r) ** -l.termMonths)) * 100) / 100;
    expect(l.totalRepayment).toBeCloseTo(instalment * l.termMonths + l.fees, 2);
    for (const o of [l, m]) {
      expect(isCents(o.totalRepayment)).toBe(true);
      expect(isCents(o.fees)).toBe(true);
      expect(o.totalRepayment).toBeGreaterThan(o.amount + o.fees);
      expect(o).toMatchObject({ currency: "GBP", simulated: true, expiresAt: "2026-12-06T10:00:00.000Z" });
    }
    expect(l.label).toBe("Term loan 12-60 months");
  });

  it("holds the amount to the product's limits and picks one when unknown", () => {
    expect(simulateOffers("x", [advance], 500_000, "GBP", issuedAt)[0].amount).toBe(100_000);
    expect(simulateOffers("x", [loan], 1_000, "GBP", issuedAt)[0].amount).toBe(10_000);
    expect(simulateOffers("x", [loan], null, "GBP", issuedAt)[0].amount).toBe(130_000);
  });

  it("makes at most SANDBOX_OFFER_LIMIT offers", () => {
    const many = Array.from({ length: 6 }, (_, i) => ({ ...loan, productId: `p${i}` }));
    expect(simulateOffers("x", many, 50_000, "GBP", issuedAt)).toHaveLength(SANDBOX_OFFER_LIMIT);
    expect(simulateOffers("x", [], 50_000, "GBP", issuedAt)).toEqual([]);
  });
});
