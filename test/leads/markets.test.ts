import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { createLead } from "./helpers";

/**
 * The spec's market shapes, written out from the spec (not read from the
 * market table) so a change to the table that breaks the contract fails here.
 */
const EU_VAT = { vat: true, companyNumber: true, block: "other" };
const MARKETS: Record<string, { code: string; currency: string; vat: boolean; companyNumber: boolean; block: string; missing: string[] }> = {
  GB: { code: "UK", currency: "GBP", vat: true, companyNumber: true, block: "uk", missing: ["business.company_number", "business.entity_type", "trading.monthly_revenue", "trading.tib_months"] },
  US: { code: "US", currency: "USD", vat: false, companyNumber: true, block: "us", missing: ["trading.credit_score_band", "trading.monthly_revenue", "trading.tib_months"] },
  CA: { code: "CA", currency: "CAD", vat: false, companyNumber: true, block: "ca", missing: ["trading.credit_score_band", "trading.monthly_revenue", "trading.tib_months"] },
  AU: { code: "AU", currency: "AUD", vat: false, companyNumber: true, block: "other", missing: ["trading.monthly_revenue", "trading.tib_months"] },
  IE: { code: "IE", currency: "EUR", ...EU_VAT, missing: ["trading.monthly_revenue", "trading.tib_months"] },
  ES: { code: "ES", currency: "EUR", ...EU_VAT, companyNumber: false, missing: ["trading.monthly_revenue", "trading.tib_months"] },
  NL: { code: "NL", currency: "EUR", ...EU_VAT, missing: ["trading.monthly_revenue", "trading.tib_months"] },
  BE: { code: "BE", currency: "EUR", ...EU_VAT, missing: ["trading.monthly_revenue", "trading.tib_months"] },
  DK: { code: "DK", currency: "EUR", ...EU_VAT, missing: ["trading.monthly_revenue", "trading.tib_months"] },
  SE: { code: "SE", currency: "EUR", ...EU_VAT, missing: ["trading.monthly_revenue", "trading.tib_months"] },
  PL: { code: "PL", currency: "EUR", ...EU_VAT, missing: ["trading.monthly_revenue", "trading.tib_months"] },
  FR: { code: "FR", currency: "EUR", ...EU_VAT, missing: ["trading.monthly_revenue", "trading.tib_months"] },
};

const BLOCK_KEYS: Record<string, string[]> = {
  uk: ["annual_turnover", "company_register_number", "entity_type", "significant_persons"],
  ca: ["credit_score_band", "currency", "monthly_revenue", "monthly_revenue_band", "monthly_revenue_basis", "region", "tib_months", "time_in_business_band"],
  us: ["credit_score_band", "currency", "ein", "monthly_revenue", "monthly_revenue_band", "monthly_revenue_basis", "region", "signup_ip", "tib_months", "time_in_business_band"],
  other: ["currency", "monthly_revenue_band", "time_in_business_band"],
};

/** Every value of an object, recursively, except the ones named. */
function leaves(value: unknown, path = ""): [string, unknown][] {
  if (value && typeof value === "object" && !Array.isArray(value)) return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [[path, value]];
}

describe("a minimal lead in every market", () => {
  it.each(Object.entries(MARKETS))("%s: the market's keys only, each null until known, and its submit requirements", async (country, m) => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { country });
    expect(lead).toMatchObject({ country: m.code, currency: m.currency, state: "draft" });

    // Exactly one market block, with the spec's keys.
    const blocks = ["uk", "us", "ca", "other"].filter((b) => b in lead);
    expect(blocks).toEqual([m.block]);
    expect(Object.keys(lead[m.block]).sort()).toEqual(BLOCK_KEYS[m.block]);

    expect("vat" in lead.business).toBe(m.vat);
    expect("company_number" in lead.business).toBe(m.companyNumber);
    const northAmerica = m.block === "us" || m.block === "ca";
    expect("credit_score_band" in lead.trading).toBe(northAmerica);

    // Unknown rule: nothing the applicant did not give is filled in.
    const known = new Set(["currency", "funding.currency", `${m.block}.currency`, "business.vat.reason"]);
    for (const part of ["channel", "business", "contact", "funding", "trading", "consent", m.block]) {
      for (const [path, value] of leaves(lead[part], part)) {
        if (known.has(path) || Array.isArray(value)) continue;
        expect(value, path).toBeNull();
      }
    }
    if (m.vat) expect(lead.business.vat.reason).toBe("no_number");

    const summary = (await call("GET", "/partner/v1/leads", { key: sandbox.key })).body.leads[0];
    expect("company_number" in summary.business).toBe(m.companyNumber);
    expect(summary).toMatchObject({ country: m.code, currency: m.currency, funding: { amount: null, amount_band: null }, contact: { first_name: null, last_name: null } });

    const submit = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expectProblem(submit, 422, "missing_fields");
    expect(submit.body.missing).toEqual(m.missing);
  });
});
