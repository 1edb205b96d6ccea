import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, http, operator } from "../e2e/client";
import { chromiumForFile } from "./browser";
import { askTheBusiness, dealWithOffer, giveTheAccount, replyToTheLender, signTheAgreement, uploadTheAgreement } from "./hub-steps";
import { checkPage, keepForDocs, PHONE } from "./page-checks";

// Issue 23: the business on a phone (390x844), in the client hub, from the link its adviser sent:
// the token traded for a cookie (303) → a reply to the lender → a statement uploaded against the
// lender's request → the offer reviewed and accepted → the payout account given (inputs a thumb can
// use: 16 px text, 44 px high, the numeric keypad for sort code and account number) → the agreement
// signed. Every page state: nothing scrolls sideways, axe clean (a screenshot if not); the chosen ones are
// copied to docs/portal/hub-*.png for docs/portal.md.
const browser = chromiumForFile();

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
    const name = `Phone Day Bakery ${Date.now()} Ltd`;
    const productId = `hub-day-${Date.now()}`;
    const { lkey, lead, ref, lender } = await dealWithOffer({
      productId,
      business: { name, company_number: "07654324" },
      contact: { first_name: "Mary", last_name: "Berry", email: "mary@bakery.example" },
      notes: "Subject to the last three months' statements",
    });
    // The introducer's commission on the product (issue 43): 1.5% of the amount funded.
    expect((await operator("PUT", `/commission-terms/${lender.org.id}/${productId}`, { currency: "GBP", basis: "percentage", rate_bps: 150, clawback_days: 90 })).status).toBe(201);
    await askTheBusiness(ref, lkey);
    const request = await http("POST", `${baseUrl()}/v1/deals/${ref}/requests`, { headers: lkey, body: { item_type: "bank_statements_6m" } });
    expect([200, 201]).toContain(request.status);
    const requestId: string = request.body.request.id;
    const uploadUrl: string = lead.body.upload_url;

    const context = await browser().newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
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
      await replyToTheLender(page, ref, "12 Bread Street, London");
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
      // Before it can accept, the business is told of its adviser's commission, above the button; "How much?" shows the amount.
      const disclosure = page.locator("[data-commission-disclosure]");
      expect(await disclosure.isVisible()).toBe(true);
      expect(await disclosure.textContent()).toContain("may receive commission from the funding provider");
      const accept = page.locator("button:text-is('Accept this offer')");
      expect((await disclosure.boundingBox())!.y).toBeLessThan((await accept.boundingBox())!.y);
      await Promise.all([page.waitForURL(/\/commission/), page.click("a:text-is('How much?')")]);
      expect(await page.locator("[data-commission-amount]").textContent()).toContain("£600");
      await checkPhone(page, "offer-commission");
      const evidence = await http("GET", `${baseUrl()}/v1/deals/${ref}`, { headers: lkey });
      expect(evidence.body.commission.disclosures.map((d: any) => d.what)).toEqual(expect.arrayContaining(["nature", "amount"]));
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
      await giveTheAccount(page, "Phone Day Bakery Ltd");

      // The lender uploads the agreement; the business signs it.
      await uploadTheAgreement(ref, lkey, readFileSync("examples/agreement.pdf"));
      await page.reload();
      const signName = await sizeOf(page, "#full_name");
      expect(signName.font).toBeGreaterThanOrEqual(16);
      expect(signName.height).toBeGreaterThanOrEqual(44);
      await checkPhone(page, "sign", true);
      await signTheAgreement(page, "Mary Berry");
      await checkPhone(page, "signed", true);
    } finally {
      await context.close();
    }

    const events = await http("GET", `${baseUrl()}/v1/events?subject=${ref}`, { headers: lkey });
    const names = events.body.events.map((e: any) => e.event);
    for (const event of ["message.created", "request.fulfilled", "offer.accepted", "deal.account_submitted", "deal.agreement_signed"]) expect(names).toContain(event);
  });
});
