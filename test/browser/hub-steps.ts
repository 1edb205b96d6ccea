/**
 * The client hub's steps, shared by the hub's browser tests (hub.browser.test.ts) and the business's
 * day on a phone (hub-phone-day.browser.test.ts): the deal a walk starts from, made over the APIs,
 * and what the business does in the hub (reply to the lender, give its account, sign), each checked
 * on the page it lands on.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { baseUrl, http, newLender, newPartner, operator } from "../e2e/client";

/** The lender's first message on every walk's deal. */
export const LENDER_QUESTION = "Could you confirm the trading address?";

export interface HubDealOptions {
  /** The lender product's id (unique within the new lender). */
  productId: string;
  business: { name: string; company_number: string };
  contact: { first_name: string; last_name: string; email: string };
  /** The offer's notes, if any. */
  notes?: string;
}

/**
 * A new lender with a GB term-loan product, a new partner's live lead that matches it (submitted), and
 * the lender's firm offer on the deal (40,000 over 24 months, 800 fees, 45,600 to repay, a week to
 * accept). Answers the keys' headers, the lead as created and the deal's reference.
 */
export async function dealWithOffer(opts: HubDealOptions) {
  const lender = await newLender();
  const product = {
    id: opts.productId, product_family: "business_loan", label: "Term loan 12-36 months", markets: ["GB"],
    min_amount: 10000, max_amount: 250000, min_monthly_revenue: 5000, min_months_trading: 12,
    pricing: { annual_rate_pct: { min: 8, max: 16 }, term_months: { min: 12, max: 36 }, fee_pct: 2 },
  };
  expect((await operator("PUT", `/organisations/${lender.org.id}/products`, { products: [product] })).status).toBe(200);
  const partner = await newPartner();
  const pkey = { "X-API-Key": partner.live.key };
  const lkey = { "X-API-Key": lender.live.key };
  const lead = await http("POST", `${baseUrl()}/partner/v1/leads`, {
    headers: pkey,
    body: {
      country: "GB",
      business: { ...opts.business, entity_type: "private_limited_company", industry: "retail" },
      contact: opts.contact,
      funding: { amount: 40000, purpose: "working_capital" },
      trading: { monthly_revenue: 30000, tib_months: 48 },
    },
  });
  expect(lead.status).toBe(201);
  expect((await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/submit`, { headers: pkey })).body.state).toBe("matched");
  const deals = await http("GET", `${baseUrl()}/v1/deals?status=new`, { headers: lkey });
  const ref: string = deals.body.deals.find((d: any) => d.business.name === opts.business.name).ref;
  const offer = await http("POST", `${baseUrl()}/v1/deals/${ref}/offers`, {
    headers: lkey,
    body: {
      maturity: "firm", amount: 40000, kind: "business_loan", annual_rate_pct: 11.5, term_months: 24, fees: 800, total_repayment: 45600,
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(), ...(opts.notes ? { notes: opts.notes } : {}),
    },
  });
  expect(offer.status).toBe(201);
  return { lender, partner, pkey, lkey, lead, ref };
}

/** The lender asks its question (LENDER_QUESTION) on the deal. */
export const askTheBusiness = (ref: string, lkey: Record<string, string>) => http("POST", `${baseUrl()}/v1/deals/${ref}/messages`, { headers: lkey, body: { body: LENDER_QUESTION } });

/** From a hub page that links the deal's messages: the lender's question is there, and the business's reply appears after sending. */
export async function replyToTheLender(page: Page, ref: string, reply: string) {
  await page.click(`a[href$="/deals/${ref}/messages"]`);
  expect(await page.locator("#messages").textContent()).toContain(LENDER_QUESTION);
  await page.fill("#subject", "Address");
  await page.fill("#body", reply);
  await Promise.all([page.waitForURL(/done=sent/), page.click("button[type=submit]")]);
  expect(await page.locator("#messages").textContent()).toContain(reply);
}

/** On the completion page: the payout account given, and shown back masked (`<holder> ••••6819`). */
export async function giveTheAccount(page: Page, holder: string) {
  await page.fill("#account_holder_name", holder);
  await page.fill("#sort_code", "12-34-56");
  await page.fill("#account_number", "31926819");
  await Promise.all([page.waitForURL(/done=account/), page.click("button[type=submit]")]);
  expect(await page.locator("#account-summary").textContent()).toContain(`${holder} ••••6819`);
}

/** The lender uploads the agreement PDF (`PUT /v1/deals/{ref}/agreement`). */
export async function uploadTheAgreement(ref: string, lkey: Record<string, string>, pdf: BodyInit) {
  const put = await fetch(`${baseUrl()}/v1/deals/${ref}/agreement`, { method: "PUT", headers: { ...lkey, "Content-Type": "application/pdf" }, body: pdf });
  expect(put.status).toBe(200);
}

/** On the completion page with the agreement there: the typed name, the consent, and the page says it is signed. */
export async function signTheAgreement(page: Page, fullName: string) {
  await page.fill("#full_name", fullName);
  await page.check("input[name=consent]");
  await Promise.all([page.waitForURL(/done=signed/), page.click("form[action$='/signature'] button[type=submit]")]);
  expect(await page.locator("#signed").textContent()).toContain("Signed");
}
