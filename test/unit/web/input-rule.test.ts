/**
 * The one input rule (src/web/kit/number-input.ts, read by jsonOfForm in src/web/kit/form.ts):
 * money, percentages, terms and dates as people type them are read where one reading is possible,
 * and anything else is left as typed for the schema to refuse beside its field (issue 45 item 7).
 */
import { describe, expect, it } from "vitest";
import { dateOfForm, jsonOfForm } from "../../../src/web/kit/form";
import { dateExample, dateOrderOf, EXAMPLE_OF, quantityOf, readDate, readMoney, readMonths, readNumber, readPercent } from "../../../src/web/kit/number-input";

describe("money", () => {
  it.each([
    ["£50k", 50_000],
    ["£50,000", 50_000],
    ["50,000", 50_000],
    ["50 000", 50_000],
    ["1.2m", 1_200_000],
    ["1.1M", 1_100_000],
    ["£1.5bn", 1_500_000_000],
    ["GBP 40,000.50", 40_000.5],
    ["40000 gbp", 40_000],
    ["£ 250", 250],
    ["50K", 50_000],
  ])("%s is %d", (typed, value) => expect(readMoney(typed, "GBP")).toBe(value));

  it.each(["50k%", "$50k", "€50,000", "5,0", "50.000", "£-5", "£50kk", "fifty", "", "£", "k"])("%s is not read on a pound amount", (typed) =>
    expect(readMoney(typed, "GBP")).toBeNull(),
  );

  it("reads a sign of the field's currency, and any sign when the currency is not known", () => {
    expect(readMoney("$50k", "USD")).toBe(50_000);
    expect(readMoney("A$50k", "AUD")).toBe(50_000);
    expect(readMoney("50 000 kr", "SEK")).toBe(50_000);
    expect(readMoney("€50k")).toBe(50_000);
  });

  it("keeps a typed minus, for the schema to refuse", () => expect(readMoney("-£5", "GBP")).toBe(-5));
});

describe("percentages, terms and plain numbers", () => {
  it("reads a percentage with or without its sign; the sign is the unit", () => {
    expect(readPercent("60%")).toBe(60);
    expect(readPercent("11.5 %")).toBe(11.5);
    expect(readPercent("11.5")).toBe(11.5);
    expect(readPercent("60%%")).toBeNull();
    expect(readPercent("£60")).toBeNull();
  });

  it("reads a term in months from months, years or both", () => {
    expect(readMonths("24")).toBe(24);
    expect(readMonths("3 years")).toBe(36);
    expect(readMonths("1 year")).toBe(12);
    expect(readMonths("1.5 years")).toBe(18);
    expect(readMonths("18 months")).toBe(18);
    expect(readMonths("1 year 6 months")).toBe(18);
    expect(readMonths("2y")).toBe(24);
    expect(readMonths("1.3 years")).toBeNull();
    expect(readMonths("3 weeks")).toBeNull();
  });

  it("keeps the plain number rule for other numbers", () => {
    expect(readNumber("1,250.50")).toBe(1250.5);
    expect(readNumber("5,0")).toBeNull();
    expect(readNumber("£5")).toBeNull();
  });

  it("says what each field holds by its name, and each kind gives its own example", () => {
    expect(quantityOf("funding.amount")).toBe("money");
    expect(quantityOf("annual_rate_pct")).toBe("percent");
    expect(quantityOf("term_months")).toBe("months");
    expect(quantityOf("trading.tib_months")).toBe("months");
    expect(quantityOf("factor_rate")).toBe("number");
    expect(new Set(Object.values(EXAMPLE_OF)).size).toBe(4);
    expect(EXAMPLE_OF.percent).not.toContain("50000");
    expect(EXAMPLE_OF.months).not.toContain("50000");
  });
});

describe("dates", () => {
  it("takes the market's order from its locale", () => {
    expect(dateOrderOf("en-GB")).toBe("DMY");
    expect(dateOrderOf("en-US")).toBe("MDY");
    expect(dateOrderOf("sv-SE")).toBe("YMD");
    expect(dateOrderOf("nl-NL")).toBe("DMY");
    expect(dateExample("DMY")).toBe("for example 27 3 2007");
  });

  it("reads 12/03/1975 in the market's order", () => {
    expect(readDate("12/03/1975", "DMY")).toBe("1975-03-12");
    expect(readDate("12/03/1975", "MDY")).toBe("1975-12-03");
    expect(readDate("12.3.1975", "DMY")).toBe("1975-03-12");
    expect(readDate("1975-03-12", "MDY")).toBe("1975-03-12");
    expect(readDate("12 March 1975", "MDY")).toBe("1975-03-12");
    expect(readDate("March 12, 1975", "DMY")).toBe("1975-03-12");
  });

  it("refuses what has no single reading", () => {
    expect(readDate("03/25/1975", "DMY")).toBeNull();
    expect(readDate("12/03/75", "DMY")).toBeNull();
    expect(readDate("31/02/1975", "DMY")).toBeNull();
    expect(readDate("12/03", "DMY")).toBeNull();
  });

  it("reads three fields, and passes an impossible day on as typed", () => {
    expect(dateOfForm({ "dob.day": "12", "dob.month": "3", "dob.year": "1975" }, "dob", "MDY")).toBe("1975-03-12");
    expect(dateOfForm({ "dob.day": "31", "dob.month": "2", "dob.year": "1975" }, "dob", "DMY")).toBe("31/2/1975");
    expect(dateOfForm({ dob: "12/03/1975" }, "dob", "DMY")).toBe("1975-03-12");
    expect(dateOfForm({ "dob.day": "", dob: "" }, "dob", "DMY")).toBeUndefined();
  });
});

describe("jsonOfForm", () => {
  it("reads each number field by what it holds, and leaves the unreadable as typed", () => {
    const body = jsonOfForm(
      { amount: "£50k", annual_rate_pct: "11.5%", term_months: "3 years", fees: "1.2k", factor_rate: "1.3", total_repayment: "£50k%", notes: "£50k" },
      { numbers: ["amount", "annual_rate_pct", "term_months", "fees", "factor_rate", "total_repayment"], currency: "GBP" },
    );
    expect(body).toEqual({ amount: 50_000, annual_rate_pct: 11.5, term_months: 36, fees: 1200, factor_rate: 1.3, total_repayment: "£50k%", notes: "£50k" });
  });

  it("makes one date of its three fields", () => {
    const body = jsonOfForm({ full_name: "Mary Berry", "date_of_birth.day": "12", "date_of_birth.month": "03", "date_of_birth.year": "1975" }, { dates: { names: ["date_of_birth"], order: "DMY" } });
    expect(body).toEqual({ full_name: "Mary Berry", date_of_birth: "1975-03-12" });
  });
});
