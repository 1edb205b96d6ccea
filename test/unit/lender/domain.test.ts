import { describe, expect, it } from "vitest";
import { matcherFacts } from "../../../src/domain/deals/facts";
import { normaliseDealReference } from "../../../src/domain/deals/reference";
import { canMove, fundedAmountRefusal, fundingCeiling, statusesAllowing } from "../../../src/domain/deals/status";
import type { Deal } from "../../../src/domain/deals/types";
import { dealSummary, dealView, marketObject } from "../../../src/domain/deals/view";
import { resolveFigures } from "../../../src/domain/figures";
import { marketFor } from "../../../src/domain/reference/markets";

const deal = (subject: Partial<Deal["subject"]> = {}): Deal => ({
  ref: "DL-ABCDEFGH",
  lenderOrganisationId: "org_l",
  partnerOrganisationId: "org_p",
  environment: "live",
  leadId: "lead",
  test: false,
  productIds: [],
  subject: { country: "GB", channel: null, business: null, contact: null, funding: null, trading: null, consent: null, significantPersons: [], ...subject },
  status: "submitted",
  lenderStatus: "new",
  statusReason: null,
  declineReasons: [],
  productFamily: null,
  fundedAmount: null,
  accountSubmittedAt: null,
  accountSummary: null,
  agreementUploadedAt: null,
  signedAt: null,
  signatureVerification: null,
  createdAt: "2026-11-22T00:00:00.000Z",
  updatedAt: "2026-11-22T00:00:00.000Z",
});

describe("lender status moves", () => {
  it("allows only new → in_review → offer_made → declined | funded", () => {
    expect(canMove("new", "in_review")).toBe(true);
    expect(canMove("in_review", "in_review")).toBe(false);
    expect(canMove("new", "funded")).toBe(false);
    expect(canMove("offer_made", "funded")).toBe(true);
    expect(canMove("funded", "declined")).toBe(false);
    expect(statusesAllowing("declined").sort()).toEqual(["in_review", "new", "offer_made"]);
  });
});

describe("deal references", () => {
  it("compare upper-cased", () => expect(normaliseDealReference(" dl-7k3m9q2a ")).toBe("DL-7K3M9Q2A"));
});

describe("dealView", () => {
  it("keeps unknowns null, marks band figures with their basis and mirrors the market object in the deprecated fields", () => {
    const view = dealView(deal({ trading: { monthly_revenue_band: "25k_50k" }, funding: { amount_band: "under_25k" } }), []);
    expect(view.request).toMatchObject({ amount_band: "under_25k", amount_basis: "band_midpoint" });
    expect(view.market).toMatchObject({ country: "UK", monthly_revenue: 37_500, monthly_revenue_basis: "band_midpoint", tib_months: null, tib_months_basis: null, registry: null });
    expect(view.contact).toEqual({ first_name: null, last_name: null, email: null, phone: null });
    expect(view.market_block).toEqual(view.market);
    expect(view.monthly_revenue).toBe(37_500);
  });

  it("gives each market its own keys", () => {
    expect(marketObject(deal({ country: "US" }))).toMatchObject({ country: "US", region: null, ein: null, signup_ip: null, identifiers: { ein: null, state_entity_number: null, state: null, lei: null } });
    expect(marketObject(deal({ country: "ES" }))).not.toHaveProperty("company_number");
    expect(marketObject(deal({ country: "FR" }))).toMatchObject({ country: "FR", company_number: null, vat: { reason: "no_number" } });
    expect(marketObject(deal({ country: "CA" }))).not.toHaveProperty("vat");
  });

  it("carries every list-item field of the spec; business.company_number only where the market has a register number", () => {
    const fields = ["amount", "business", "contact", "created_at", "currency", "lender_status", "market", "product", "ref", "statements_available", "status", "test", "updated_at"];
    const uk = dealSummary(deal({ business: { name: "Widgets Ltd" } }));
    expect(Object.keys(uk).sort()).toEqual(fields.sort());
    expect(uk.business).toEqual({ name: "Widgets Ltd", company_number: null });
    // The leads' rule: a key the market does not have is absent (Spain has no register number).
    expect(dealSummary(deal({ country: "ES", business: { name: "Tapas SL" } })).business).toEqual({ name: "Tapas SL" });
  });
});

describe("matcherFacts", () => {
  it("passes reported figures as reported, bands as bands, and a twelfth of turnover before a revenue band", () => {
    const market = marketFor("GB");
    const figures = resolveFigures({ applicant: { amount: 40_000, monthly_revenue_band: "25k_50k", annual_turnover: 420_000, time_in_business_band: "24m_60m" }, register: null, statements: null }, market);
    const facts = matcherFacts({ market, figures, industry: "retail", purpose: "working_capital", product_family: null });
    expect(facts.amount).toEqual({ value: 40_000, basis: "reported" });
    expect(facts.monthlyRevenue).toEqual({ value: 35_000, basis: "annual_turnover" });
    expect(facts.tibMonths).toBeNull();
    expect(facts.timeInBusinessBand).toBe("24m_60m");
  });
});

describe("the funding ceiling", () => {
  const offer = (amount: number, state: "presented" | "accepted" | "closed", superseded = false) => ({ amount, currency: "GBP", state, superseded });

  it("is the accepted offer, else the current one; a replaced offer never counts", () => {
    expect(fundingCeiling([offer(50_000, "presented", true), offer(40_000, "accepted")])?.amount).toBe(40_000);
    expect(fundingCeiling([offer(50_000, "presented", true), offer(30_000, "presented")])?.amount).toBe(30_000);
    expect(fundingCeiling([offer(50_000, "presented", true)])).toBeNull();
    expect(fundingCeiling([])).toBeNull();
  });

  it("refuses only an amount above it, naming funded_amount", () => {
    expect(fundedAmountRefusal(40_000, offer(40_000, "accepted"))).toBeNull();
    expect(fundedAmountRefusal(39_999.5, offer(40_000, "accepted"))).toBeNull();
    const refusal = fundedAmountRefusal(40_000.01, offer(40_000, "accepted"));
    expect(refusal).toMatchObject({ code: "amount_above_offer", field: "funded_amount" });
    expect(refusal?.detail).toContain("GBP 40000 of the accepted offer");
    expect(fundedAmountRefusal(999_999_999, null)).toBeNull();
  });
});
