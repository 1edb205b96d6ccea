import { describe, expect, it } from "vitest";
import { monthsSince, resolveFigures } from "../../../src/domain/figures";
import { marketFor } from "../../../src/domain/reference/markets";

const gb = marketFor("GB");
const us = marketFor("US");
const none = { applicant: null, register: null, statements: null };

describe("resolveFigures", () => {
  it("holds nothing when no source says anything", () => {
    expect(resolveFigures(none, gb)).toEqual({
      monthly_revenue: null,
      monthly_revenue_basis: null,
      monthly_revenue_band: null,
      annual_turnover: null,
      annual_turnover_basis: null,
      tib_months: null,
      tib_months_basis: null,
      time_in_business_band: null,
      amount: null,
      amount_basis: null,
      amount_band: null,
      credit_score_band: null,
      currency: "GBP",
    });
  });

  it("marks a figure from a band as its midpoint, and the open top band as its lower bound", () => {
    const f = resolveFigures({ ...none, applicant: { monthly_revenue_band: "10k_25k", time_in_business_band: "over_60m", amount_band: "under_25k" } }, gb);
    expect(f).toMatchObject({
      monthly_revenue: 17_500,
      monthly_revenue_basis: "band_midpoint",
      monthly_revenue_band: "10k_25k",
      tib_months: 60,
      tib_months_basis: "band_lower_bound",
      time_in_business_band: "over_60m",
      amount: 13_000,
      amount_basis: "band_midpoint",
      amount_band: "under_25k",
    });
  });

  it("prefers the applicant's figure to its band and keeps the band beside it", () => {
    const f = resolveFigures({ ...none, applicant: { monthly_revenue: 12_345, monthly_revenue_band: "10k_25k", tib_months: 7, time_in_business_band: "6m_12m" } }, gb);
    expect(f).toMatchObject({ monthly_revenue: 12_345, monthly_revenue_basis: "applicant", monthly_revenue_band: "10k_25k", tib_months: 7, tib_months_basis: "applicant", time_in_business_band: "6m_12m" });
  });

  it("never derives a band from a figure", () => {
    const f = resolveFigures({ ...none, applicant: { monthly_revenue: 12_345, tib_months: 7, amount: 5_000 } }, gb);
    expect(f.monthly_revenue_band).toBeNull();
    expect(f.time_in_business_band).toBeNull();
    expect(f.amount_band).toBeNull();
  });

  it("puts the register above the applicant", () => {
    const f = resolveFigures(
      { applicant: { tib_months: 7, time_in_business_band: "6m_12m", annual_turnover: 100_000 }, register: { tib_months: 31, annual_turnover: 250_000 }, statements: null },
      gb,
    );
    expect(f).toMatchObject({ tib_months: 31, tib_months_basis: "register", time_in_business_band: "6m_12m", annual_turnover: 250_000, annual_turnover_basis: "filed_accounts" });
  });

  it("puts parsed statements above the register and the applicant", () => {
    const f = resolveFigures(
      {
        applicant: { monthly_revenue: 10_000, monthly_revenue_band: "10k_25k", annual_turnover: 100_000 },
        register: { annual_turnover: 250_000 },
        statements: { monthly_revenue: 22_000, annual_turnover: 264_000 },
      },
      gb,
    );
    expect(f).toMatchObject({
      monthly_revenue: 22_000,
      monthly_revenue_basis: "statements",
      monthly_revenue_band: "10k_25k",
      annual_turnover: 264_000,
      annual_turnover_basis: "statements",
    });
  });

  it("falls through a source that holds null for the figure", () => {
    const f = resolveFigures({ applicant: { monthly_revenue_band: "under_10k" }, register: { tib_months: null }, statements: { monthly_revenue: null } }, gb);
    expect(f).toMatchObject({ monthly_revenue: 5_000, monthly_revenue_basis: "band_midpoint", tib_months: null, tib_months_basis: null });
  });

  it("carries a credit score band only in the US and Canada", () => {
    expect(resolveFigures({ ...none, applicant: { credit_score_band: "580_669" } }, us).credit_score_band).toBe("580_669");
    expect(resolveFigures({ ...none, applicant: { credit_score_band: "580_669" } }, gb).credit_score_band).toBeNull();
  });

  it("ignores band codes that are not bands", () => {
    const f = resolveFigures({ ...none, applicant: { monthly_revenue_band: "lots" } }, gb);
    expect(f.monthly_revenue).toBeNull();
    expect(f.monthly_revenue_band).toBeNull();
  });
});

describe("monthsSince", () => {
  it("counts whole months from an incorporation date", () => {
    const asOf = new Date("2026-11-22T00:00:00Z");
    expect(monthsSince("2024-11-22", asOf)).toBe(24);
    expect(monthsSince("2024-11-23", asOf)).toBe(23);
    expect(monthsSince("2027-01-01", asOf)).toBeNull();
    expect(monthsSince("not a date", asOf)).toBeNull();
  });
});
