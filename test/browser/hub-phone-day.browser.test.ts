import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, http, newLender, newPartner, operator } from "../e2e/client";
import { launchChromium } from "./browser";
import { PHONE, checkPage, keepForDocs } from "./page-checks";

// Issue 23: the business on a phone (390x844), in the client hub, from the link its adviser sent:
// the token traded for a cookie (303) → a reply to the lender → a statement uploaded against the
// lender's request → the offer reviewed and accepted → the payout account given (inputs a thumb can
// use: 16 px text, 44 px high, the numeric keypad for sort code and account number) → the agreement
// signed. Every page state: screenshot, nothing scrolls sideways, axe clean; the chosen ones are
// copied to docs/portal/hub-*.png for docs/portal.md.
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function checkPhone(page: Page, name: string, docs = false) {
  await checkPage(page, name, { folder: "test-artifacts/hub", widths: [PHONE] });
  if (docs) {
    await keepForDocs(page, `hub-${name}.png`, PHONE);
  }
}

/** The input's computed text size and height, in CSS pixels. */
const sizeOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => ({ font: parseFloat(getComputedStyle(el).fontSize), height: el.getBoundingClientRect().height }));

describe("the business on a phone", () => {
  it("opens the link, replies, uploads, accepts after review, gives its account and signs", { timeout: 300_000 }, async () => {
    const lender = await newLender();
    const product = {
      id: `hub-day-${Date.now()}`, product_family: "business_loan", label: "Term loan 12-36 months", markets: ["GB"],
      min_amount: 10000, max_amount: 250000, min_monthly_revenue: 5000, min_months_trading: 12,
      pricing: { annual_rate_pct: { min: 8, max: 16 }, term_months: { min: 12, max: 36 }, fee_pct: 2 },
    };
    expect((await operator("PUT", `/organisations/${lender.org.id}/products`, { products: [product] })).status).toBe(200);
    const partner = await newPartner();
    const pkey = { "X-API-Key": partner.live.key };
    const lkey = { "X-API-Key": lender.live.key };
    const name = `Phone Day Bakery ${Date.now()} Ltd`;
    const lead = await http("POST", `${baseUrl()}/partner/v1/leads`, {
      headers: pkey,
      body: {
        country: "GB",
        business: { name, company_number: "07654324", entity_type: "private_limited_company", industry: "retail" },
        contact: { first_name: "Mary", last_name: "Berry", email: "mary@bakery.example" },
        funding: { amount: 40000, purpose: "working_capital" },
        trading: { monthly_revenue: 30000, tib_months: 48 },
      },
    });
    expect(lead.status).toBe(201);
    expect((await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/submit`, { headers: pkey })).body.state).toBe("matched");
    const deals = await http("GET", `${baseUrl()}/v1/deals?status=new`, { headers: lkey });
    const ref: string = deals.body.deals.find((d: any) => d.business.name === name).ref;
    const offer = await http("POST", `${baseUrl()}/v1/deals/${ref}/offers`, {
      headers: lkey,
      body: { maturity: "firm", amount: 40000, kind: "business_loan", annual_rate_pct: 11.5, term_months: 24, fees: 800, total_repayment: 45600, expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(), notes: "Subject to the last three months' statements" },
    });
    expect(offer.status).toBe(201);
    await http("POST", `${baseUrl()}/v1/deals/${ref}/messages`, { headers: lkey, body: { body: "Could you confirm the trading address?" } });
    const request = await http("POST", `${baseUrl()}/v1/deals/${ref}/requests`, { headers: lkey, body: { item_type: "bank_statements_6m" } });
    expect([200, 201]).toContain(request.status);
    const requestId: string = request.body.request.id;
    const uploadUrl: string = lead.body.upload_url;

    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      // The link: the token is traded for a cookie and a 303 to the hub without it.
      const opened = await page.goto(uploadUrl);
      expect(opened!.status()).toBe(200);
      expect(opened!.request().redirectedFrom()?.url()).toBe(uploadUrl);
      expect(page.url()).toBe(`${baseUrl()}/hub/${lead.body.id}`);
      expect((await context.cookies()).some((c) => c.name === "rfs_hub" && c.httpOnly)).toBe(true);
      expect(await page.locator("h1").textContent()).toBe(name);
      await checkPhone(page, "overview", true);
      const hub = page.url();

      // A reply to the lender's message.
      await page.click(`a[href$="/deals/${ref}/messages"]`);
      expect(await page.locator("#messages").textContent()).toContain("Could you confirm the trading address?");
      await page.fill("#subject", "Address");
      await page.fill("#body", "12 Bread Street, London");
      await Promise.all([page.waitForURL(/done=sent/), page.click("button[type=submit]")]);
      expect(await page.locator("#messages").textContent()).toContain("12 Bread Street, London");
      await checkPhone(page, "messages", true);

      // The statement, uploaded against the request.
      await page.goto(hub);
      await page.click(`a[href$="/requests/${requestId}"]`);
      await page.setInputFiles("input[type=file]", { name: "statement-q1.csv", mimeType: "text/csv", buffer: readFileSync("examples/statement-q1.csv") });
      await Promise.all([page.waitForURL(/done=uploaded/), page.click("button[type=submit]")]);
      expect(await page.locator("#request-files").textContent()).toContain("statement-q1.csv");
      await checkPhone(page, "request-uploaded", true);

      // The offer reviewed, then accepted: the notice says what happens next.
      await page.goto(hub);
      await page.click("text=Review and accept this offer");
      expect(await page.locator("main, body").first().textContent()).toContain("£45,600");
      await checkPhone(page, "offer-review", true);
      await Promise.all([page.waitForURL(/done=accepted/), page.click("button:text-is('Accept this offer')")]);
      expect(await page.locator("p.notice").textContent()).toContain("What happens next:");
      await checkPhone(page, "offer-accepted");

      // The payout account: inputs a thumb can use, the numeric keypad where digits are typed.
      await page.goto(`${hub}/deals/${ref}/completion`);
      for (const input of ["#account_holder_name", "#sort_code", "#account_number"]) {
        const size = await sizeOf(page, input);
        expect(size.font, `${input} text size`).toBeGreaterThanOrEqual(16);
        expect(size.height, `${input} height`).toBeGreaterThanOrEqual(44);
      }
      for (const input of ["#sort_code", "#account_number"]) {
        expect(await page.getAttribute(input, "inputmode"), `${input} inputmode`).toBe("numeric");
        expect(await page.getAttribute(input, "autocomplete"), `${input} autocomplete`).toBeTruthy();
      }
      expect(await page.getAttribute("#account_holder_name", "autocomplete")).toBe("name");
      await checkPhone(page, "account", true);
      await page.fill("#account_holder_name", "Phone Day Bakery Ltd");
      await page.fill("#sort_code", "12-34-56");
      await page.fill("#account_number", "31926819");
      await Promise.all([page.waitForURL(/done=account/), page.click("button[type=submit]")]);
      expect(await page.locator("#account-summary").textContent()).toContain("••••6819");

      // The lender uploads the agreement; the business signs it.
      const pdf = readFileSync("examples/agreement.pdf");
      const put = await fetch(`${baseUrl()}/v1/deals/${ref}/agreement`, { method: "PUT", headers: { ...lkey, "Content-Type": "application/pdf" }, body: pdf });
      expect(put.status).toBe(200);
      await page.reload();
      const signName = await sizeOf(page, "#full_name");
      expect(signName.font).toBeGreaterThanOrEqual(16);
      expect(signName.height).toBeGreaterThanOrEqual(44);
      await checkPhone(page, "sign", true);
      await page.fill("#full_name", "Mary Berry");
      await page.check("input[name=consent]");
      await Promise.all([page.waitForURL(/done=signed/), page.click("form[action$='/signature'] button[type=submit]")]);
      expect(await page.locator("#signed").textContent()).toContain("Signed");
      await checkPhone(page, "signed", true);
    } finally {
      await context.close();
    }

    const events = await http("GET", `${baseUrl()}/v1/events?subject=${ref}`, { headers: lkey });
    const names = events.body.events.map((e: any) => e.event);
    for (const event of ["message.created", "request.fulfilled", "offer.accepted", "deal.account_submitted", "deal.agreement_signed"]) expect(names).toContain(event);
  });
});
