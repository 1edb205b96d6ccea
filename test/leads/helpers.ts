import { call } from "../helpers/api";

/**
 * A company number no other lead of the run names: the live rule "one business, one introducer"
 * (docs/leads.md, "Attribution") would otherwise end every later live lead of the same company.
 */
export const freshCompanyNumber = () => `7${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;

/** A UK lead with every mandatory field of its market, for a company of its own. */
export const completeUkLead = () => ({
  country: "GB",
  partner_reference: "acct-42",
  channel: { name: "Acme Books", domain: "acmebooks.example" },
  business: { name: "Widgets Ltd", company_number: freshCompanyNumber(), entity_type: "private_limited_company", industry: "ecommerce", vat: { number: "GB123456789" } },
  contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000" },
  funding: { amount: 40_000, purpose: "working_capital", product_family: "business_loan" },
  trading: { monthly_revenue_band: "25k_50k", time_in_business_band: "24m_60m", annual_turnover: 420_000 },
  consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
});

export const person = (overrides: Record<string, unknown> = {}) => ({
  full_name: "Ada Lovelace",
  date_of_birth: "1984-03-09",
  residential_address: { line1: "1 High Street", postal_code: "SW1A 1AA", city: "London", country: "GB" },
  residency_status: "homeowner",
  ownership_percent: 60,
  ...overrides,
});

export async function createLead(key: string, body: unknown = completeUkLead(), headers: Record<string, string> = {}) {
  const res = await call("POST", "/partner/v1/leads", { key, body, headers });
  if (res.status !== 201) throw new Error(`lead: ${res.status} ${res.text}`);
  return res.body;
}
