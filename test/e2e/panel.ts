import { expect } from "vitest";
import { baseUrl, http, newLender, newPartner, operator } from "./client";

/**
 * The one panel product the e2e files put on a fresh lender: a GB term loan of 10,000-250,000 for a
 * business trading 12 months or more with 5,000 a month, which `matchedLeadBody` (and the bare start's
 * and the SDK's GB leads) fit. `id` names the product in the file's own lender.
 */
export const panelProduct = (id: string) => ({
  id,
  product_family: "business_loan",
  label: "Term loan 12-36 months",
  markets: ["GB"],
  min_amount: 10_000,
  max_amount: 250_000,
  min_monthly_revenue: 5_000,
  min_months_trading: 12,
  pricing: { annual_rate_pct: { min: 8, max: 16 }, term_months: { min: 12, max: 36 }, fee_pct: 2 },
});

/** A fresh lender with `panelProduct(productId)` on the panel, so a matching submit routes to it. */
export async function panelLender(productId: string) {
  const lender = await newLender();
  expect((await operator("PUT", `/organisations/${lender.org.id}/products`, { products: [panelProduct(productId)] })).status).toBe(200);
  return lender;
}

/** A GB lead the panel product matches: a retail limited company, 40,000 for working capital, 30,000 a month for 48 months. */
export const matchedLeadBody = (business: { name: string; company_number: string }, contact: { first_name: string; last_name: string; email: string }) => ({
  country: "GB",
  business: { ...business, entity_type: "private_limited_company", industry: "retail" },
  contact,
  funding: { amount: 40_000, purpose: "working_capital" },
  trading: { monthly_revenue: 30_000, tib_months: 48 },
});

/**
 * The matched-lead setup of the live flows: a panel lender, a new partner and that partner's live draft
 * of `matchedLeadBody` (created, not yet submitted: a submit routes it to the lender).
 */
export async function matchedLead(productId: string, ...body: Parameters<typeof matchedLeadBody>) {
  const lender = await panelLender(productId);
  const partner = await newPartner();
  const pkey = { "X-API-Key": partner.live.key };
  const lead = await http("POST", `${baseUrl()}/partner/v1/leads`, { headers: pkey, body: matchedLeadBody(...body) });
  expect(lead.status).toBe(201);
  return { lender, partner, pkey, lead };
}
