import { describe, expect, it } from "vitest";
import { wordDisclosure } from "../../../src/domain/commission/disclosure";
import { divideHalfUp, isCurrency, minorToDecimal, toMinorUnits, type CurrencyCode } from "../../../src/domain/commission/money";
import { monthOf, monthRange } from "../../../src/domain/commission/month";
import { statementCsv, statementTotals, type StatementEntry } from "../../../src/domain/commission/statement";
import { commissionOn, termsInForce, termsProblem, withinClawback, type CommissionTerms } from "../../../src/domain/commission/terms";
import { CURRENCIES } from "../../../src/domain/reference/values";

const pct = (rateBps: number, minAmount: number | null = null, maxAmount: number | null = null) => ({ basis: "percentage" as const, rateBps, flatAmount: null, minAmount, maxAmount });
const flat = (flatAmount: number, minAmount: number | null = null, maxAmount: number | null = null) => ({ basis: "flat" as const, rateBps: null, flatAmount, minAmount, maxAmount });

describe("rounding: half up, in integers", () => {
  it("rounds a half up and everything else to the nearest", () => {
    expect(divideHalfUp(5n, 10n)).toBe(1n);
    expect(divideHalfUp(15n, 10n)).toBe(2n);
    expect(divideHalfUp(25n, 10n)).toBe(3n); // banker's rounding would give 2
    expect(divideHalfUp(14n, 10n)).toBe(1n);
    expect(divideHalfUp(16n, 10n)).toBe(2n);
    expect(divideHalfUp(0n, 7n)).toBe(0n);
  });

  it("reads a major amount from its decimal spelling, not its binary value", () => {
    expect(toMinorUnits(1.005, "GBP")).toBe(101);
    expect(toMinorUnits(1.004, "GBP")).toBe(100);
    expect(toMinorUnits(40_000, "EUR")).toBe(4_000_000);
    expect(toMinorUnits(0.1 + 0.2, "USD")).toBe(30);
    expect(toMinorUnits(1e-7, "USD")).toBe(0);
    expect(toMinorUnits(999_999_999_999.99, "PLN")).toBe(99_999_999_999_999);
    expect(minorToDecimal(123_456, "GBP")).toBe("1234.56");
    expect(minorToDecimal(-5, "SEK")).toBe("-0.05");
  });
});

describe("the commission on a funded amount, in every market currency", () => {
  const currencies = CURRENCIES.map((c) => c.value as CurrencyCode);
  it("has the minor digits of every market currency", () => {
    for (const currency of currencies) expect(isCurrency(currency)).toBe(true);
    expect(isCurrency("JPY")).toBe(false);
  });

  for (const currency of currencies) {
    it(`${currency}: percentage, flat, minimum and maximum`, () => {
      const funded = toMinorUnits(25_000.5, currency); // 2,500,050 minor units
      expect(commissionOn(pct(150), funded)).toBe(37_501); // 1.5% = 37,500.75 → 37,501
      expect(commissionOn(pct(1), 50)).toBe(0); // 0.005 → 0
      expect(commissionOn(pct(100), 50)).toBe(1); // 0.5 → 1: half up
      expect(commissionOn(flat(25_000), funded)).toBe(25_000);
      expect(commissionOn(pct(150, 50_000), funded)).toBe(50_000); // raised to the minimum
      expect(commissionOn(pct(150, null, 30_000), funded)).toBe(30_000); // capped at the maximum
      expect(commissionOn(flat(25_000, null, 20_000), funded)).toBe(20_000);
      expect(commissionOn(pct(10_000), toMinorUnits(1_000_000_000_000, currency))).toBe(100_000_000_000_000); // exact beyond 2^53 in the product
    });
  }

  it("refuses terms that contradict themselves, naming the field", () => {
    const none = { rateBps: null, flatAmount: null, minAmount: null, maxAmount: null, clawbackDays: 90 };
    expect(termsProblem({ ...none, basis: "percentage" })?.field).toBe("rate_bps");
    expect(termsProblem({ ...none, basis: "flat" })?.field).toBe("flat_amount");
    expect(termsProblem({ ...none, basis: "flat", flatAmount: 1, rateBps: 5 })?.field).toBe("rate_bps");
    expect(termsProblem({ ...none, basis: "percentage", rateBps: 5, minAmount: 10, maxAmount: 9 })?.field).toBe("min_amount");
    expect(termsProblem({ ...none, basis: "percentage", rateBps: 5 })).toBeNull();
  });
});

describe("the terms in force", () => {
  const row = (id: string, partner: string, effectiveAt: string): Pick<CommissionTerms, "id" | "partnerOrganisationId" | "effectiveAt"> => ({ id, partnerOrganisationId: partner, effectiveAt });
  const history = [row("d1", "", "2026-01-01T00:00:00.000Z"), row("p1", "org_p", "2026-03-01T00:00:00.000Z"), row("d2", "", "2026-04-01T00:00:00.000Z"), row("p2", "org_p", "2026-06-01T00:00:00.000Z")];

  it("is the partner's own when one was in force, else the product's default, never a later change", () => {
    expect(termsInForce(history, "org_p", "2025-12-31T23:59:59.999Z")).toBeNull();
    expect(termsInForce(history, "org_p", "2026-02-01T00:00:00.000Z")?.id).toBe("d1");
    expect(termsInForce(history, "org_p", "2026-05-01T00:00:00.000Z")?.id).toBe("p1");
    expect(termsInForce(history, "org_p", "2026-06-01T00:00:00.000Z")?.id).toBe("p2");
    expect(termsInForce(history, "org_other", "2026-05-01T00:00:00.000Z")?.id).toBe("d2");
  });

  it("takes the later written of two changes in the same millisecond", () => {
    expect(termsInForce([row("a", "", "2026-01-01T00:00:00.000Z"), row("b", "", "2026-01-01T00:00:00.000Z")], "x", "2026-02-01T00:00:00.000Z")?.id).toBe("b");
  });

  it("claws back within clawback_days of funding, and not after", () => {
    expect(withinClawback("2026-01-01T00:00:00.000Z", "2026-03-31T00:00:00.000Z", 90)).toBe(true);
    expect(withinClawback("2026-01-01T00:00:00.000Z", "2026-04-01T00:00:00.001Z", 90)).toBe(false);
    expect(withinClawback("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", 0)).toBe(true);
  });
});

describe("months", () => {
  it("belongs to the UTC month of its time and spans it half-open", () => {
    expect(monthOf("2026-11-30T23:59:59.999Z")).toBe("2026-11");
    expect(monthOf("2026-12-01T00:00:00.000Z")).toBe("2026-12");
    expect(monthRange("2026-12")).toEqual({ from: "2026-12-01T00:00:00.000Z", until: "2027-01-01T00:00:00.000Z" });
    expect(monthRange("2028-02")).toEqual({ from: "2028-02-01T00:00:00.000Z", until: "2028-03-01T00:00:00.000Z" });
    expect(() => monthRange("2026-13")).toThrow();
  });
});

describe("the statement", () => {
  const entry = (id: string, kind: StatementEntry["kind"], amount: number, currency: CurrencyCode = "GBP", extra: Partial<StatementEntry> = {}): StatementEntry => ({
    id,
    kind,
    lead_id: "lead",
    product_family: "business_loan",
    amount,
    currency,
    funded_amount: 4_000_000,
    payment_reference: null,
    reason: null,
    created_at: "2026-11-02T10:00:00.000Z",
    ...extra,
  });

  it("totals each currency by kind, and its CSV total line is the sum of its entry lines", () => {
    const entries = [entry("a", "accrued", 60_001), entry("b", "paid", -60_001, "GBP", { payment_reference: '=HYPERLINK("x"), "quoted"' }), entry("c", "accrued", 1_250, "EUR"), entry("d", "clawed_back", -1_250, "EUR", { reason: "defaulted" })];
    expect(statementTotals(entries)).toEqual([
      { currency: "GBP", accrued: 60_001, paid: -60_001, clawed_back: 0, net: 0 },
      { currency: "EUR", accrued: 1_250, paid: 0, clawed_back: -1_250, net: 0 },
    ]);
    const csv = statementCsv([entry("e", "accrued", 12_345), entry("f", "accrued", 1)]);
    const lines = csv.trim().split("\r\n").map((l) => l.split(","));
    const header = lines[0]!;
    const at = (name: string) => header.indexOf(name);
    const body = lines.slice(1).filter((l) => l[0] !== "total");
    const total = lines.find((l) => l[0] === "total")!;
    expect(body.reduce((sum, l) => sum + Number(l[at("amount_minor")]), 0)).toBe(Number(total[at("amount_minor")]));
    expect(total[at("amount")]).toBe("123.46");
    // A value a spreadsheet would run as a formula is neutralised and quoted.
    expect(statementCsv(entries)).toContain(`"'=HYPERLINK(""x""), ""quoted"""`);
  });
});

describe("the disclosure", () => {
  const offer = { id: "off_1", dealRef: "DL-1", amount: 40_000, currency: "GBP" as const };
  it("tells the nature without the amount, and the amount under the terms on request, with its version", () => {
    const nature = wordDisclosure(pct(150, null, 50_000), offer, "nature");
    expect(nature).toMatchObject({ disclosureVersion: expect.stringMatching(/^commission-disclosure-/), what: "nature", amount: null, offerId: "off_1", dealRef: "DL-1" });
    expect(nature.text).toMatch(/may receive commission from the funding provider/);
    expect(nature.text).toMatch(/1\.5%/);
    expect(nature.text).toMatch(/How much\?/);
    const amount = wordDisclosure(pct(150, null, 50_000), offer, "amount", (major, currency) => `${currency}:${major}`);
    expect(amount.amount).toBe(50_000); // 600.00 capped at 500.00
    expect(amount.text).toContain("GBP:500");
    expect(wordDisclosure(flat(25_000), offer, "nature").text).toMatch(/a fixed fee/);
    expect(wordDisclosure(null, offer, "amount")).toMatchObject({ amount: null, text: expect.stringMatching(/no commission/) });
  });
});
