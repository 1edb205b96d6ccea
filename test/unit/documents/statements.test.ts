import { describe, expect, it } from "vitest";
import { csvRows, parseMoney, parseStatementCsv, parseStatementDate } from "../../../src/domain/documents/statement-csv";
import { monthsSpanned } from "../../../src/domain/documents/statement-figures";
import { ofxAmount, ofxDate, parseStatementOfx } from "../../../src/domain/documents/statement-ofx";
import { ofxV1Bank, ofxV2Card, preambleCsv, semicolonCsv, signedAmountCsv, splitColumnsCsv } from "../../documents/fixtures";

describe("CSV statements", () => {
  it("reads split debit / credit columns with quoted thousands and commas inside quotes", () => {
    expect(parseStatementCsv(splitColumnsCsv)).toEqual({
      format: "csv",
      account_kind: "bank",
      currency: null,
      period_start: "2026-01-05",
      period_end: "2026-03-31",
      transaction_count: 5,
      credits_total: 10_000,
      debits_total: 2_150,
      monthly_revenue: 3_333.33,
      // Each month's credits and debits, for the lender's deal page (issue 45 item 6).
      months: [
        { month: "2026-01", credits: 2_749.5, debits: 950 },
        { month: "2026-02", credits: 3_000.5, debits: 0 },
        { month: "2026-03", credits: 4_250, debits: 1_200 },
      ],
    });
  });

  it("reads one signed amount column and takes the currency from a currency column", () => {
    expect(parseStatementCsv(signedAmountCsv)).toMatchObject({
      currency: "GBP",
      period_start: "2026-04-03",
      period_end: "2026-05-20",
      transaction_count: 4,
      credits_total: 4_000,
      debits_total: 162.15,
      monthly_revenue: 2_000,
    });
  });

  it("finds the header after a preamble, reads DD MMM YYYY, symbols and parentheses, and skips balance and total rows", () => {
    expect(parseStatementCsv(preambleCsv)).toMatchObject({
      currency: "GBP",
      period_start: "2026-06-03",
      period_end: "2026-07-28",
      transaction_count: 3,
      credits_total: 2_000,
      debits_total: 500,
      monthly_revenue: 1_000,
    });
  });

  it("reads semicolon-delimited files, DD-MM-YYYY and a currency named in the amount header", () => {
    expect(parseStatementCsv(semicolonCsv)).toMatchObject({ currency: "EUR", transaction_count: 2, credits_total: 1_000, debits_total: 400, monthly_revenue: 1_000 });
  });

  it("is null without a recognisable header or without a dated transaction", () => {
    expect(parseStatementCsv("name,email\nAda,ada@example.com\n")).toBeNull();
    expect(parseStatementCsv("Date,Description,Amount\n")).toBeNull();
    expect(parseStatementCsv("Date,Description,Amount\nnot a date,x,12.00\n31/02/2026,y,5.00\n")).toBeNull();
    expect(parseStatementCsv("Date,Description,Paid in\n01/01/2026,x,5.00\n")).toBeNull();
  });

  it("splits quoted fields holding delimiters, doubled quotes and line breaks", () => {
    expect(csvRows('a,"b, c","say ""hi""","two\nlines"\r\n\r\nd', ",")).toEqual([["a", "b, c", 'say "hi"', "two\nlines"], ["d"]]);
  });

  it.each([
    ["2026-03-09", "2026-03-09"],
    ["09/03/2026", "2026-03-09"],
    ["9/3/2026", "2026-03-09"],
    ["09-03-2026", "2026-03-09"],
    ["09 Mar 2026", "2026-03-09"],
    ["9 March 2026", "2026-03-09"],
    ["09-Sep-2026", "2026-09-09"],
    ["29/02/2026", null],
    ["2026-13-01", null],
    ["09 Foo 2026", null],
    ["Total", null],
  ])("reads the date %s as %s", (input, expected) => {
    expect(parseStatementDate(input)).toBe(expected);
  });

  it.each([
    ["1,234.56", 123_456, null],
    ["-42.10", -4_210, null],
    ["£1,000", 100_000, "GBP"],
    ["-£12.50", -1_250, "GBP"],
    ["£-12.50", -1_250, "GBP"],
    ["(500.00)", -50_000, null],
    ["(£500.00)", -50_000, "GBP"],
    ["€ 7.5", 750, "EUR"],
    ["12.00 GBP", 1_200, "GBP"],
    ["25.00 DR", -2_500, null],
    ["25.00CR", 2_500, null],
    ["10-", -1_000, null],
    ["$99.99", 9_999, null],
  ])("reads the amount %s", (input, cents, currency) => {
    expect(parseMoney(input)).toEqual({ cents, currency });
  });

  it("reads empty cells as no amount and words as not money", () => {
    expect(parseMoney("").cents).toBeNull();
    expect(parseMoney("n/a").cents).toBeNaN();
    expect(parseMoney("1,23").cents).toBeNaN();
  });
});

describe("OFX statements", () => {
  it("reads SGML (v1) bank statements with unclosed elements", () => {
    expect(parseStatementOfx(ofxV1Bank)).toEqual({
      format: "ofx",
      account_kind: "bank",
      currency: "GBP",
      period_start: "2026-01-05",
      period_end: "2026-03-30",
      transaction_count: 3,
      credits_total: 9_000,
      debits_total: 250.75,
      monthly_revenue: 3_000,
      // A month with no credit is listed as zero, not left out.
      months: [
        { month: "2026-01", credits: 3_000, debits: 0 },
        { month: "2026-02", credits: 0, debits: 250.75 },
        { month: "2026-03", credits: 6_000, debits: 0 },
      ],
    });
  });

  it("reads XML (v2) credit-card statements as account kind card", () => {
    expect(parseStatementOfx(ofxV2Card)).toMatchObject({ account_kind: "card", currency: "EUR", transaction_count: 2, credits_total: 500, debits_total: 89.99, monthly_revenue: 500 });
  });

  it("is null without a statement message set or without transactions", () => {
    expect(parseStatementOfx("<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>")).toBeNull();
    expect(parseStatementOfx("<OFX><BANKMSGSRSV1><STMTRS><CURDEF>GBP</STMTRS></BANKMSGSRSV1></OFX>")).toBeNull();
    expect(parseStatementOfx("<OFX><BANKMSGSRSV1><STMTTRN><TRNAMT>abc<DTPOSTED>2026</STMTTRN></BANKMSGSRSV1></OFX>")).toBeNull();
  });

  it("reads OFX dates and amounts", () => {
    expect(ofxDate("20260105120000.000[-5:EST]")).toBe("2026-01-05");
    expect(ofxDate("20260230")).toBeNull();
    expect(ofxAmount("-250.75")).toBe(-25_075);
    expect(ofxAmount("12,5")).toBe(1_250);
    expect(ofxAmount("+3")).toBe(300);
    expect(ofxAmount("1e3")).toBeNull();
  });
});

describe("monthly revenue", () => {
  it("divides by the calendar months spanned, at least one", () => {
    expect(monthsSpanned("2026-01-31", "2026-02-01")).toBe(2);
    expect(monthsSpanned("2026-03-09", "2026-03-09")).toBe(1);
    expect(monthsSpanned("2025-11-15", "2026-02-10")).toBe(4);
    // 100.00 over 3 months is 33.33, rounded to the penny
    expect(parseStatementCsv("Date,Amount\n01/01/2026,100\n01/03/2026,-1")?.monthly_revenue).toBe(33.33);
  });
});
