import { readFileSync } from "node:fs";
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, http, operator } from "../e2e/client";
import { chromiumForFile } from "./browser";
import { askTheBusiness, dealWithOffer, giveTheAccount, replyToTheLender, signTheAgreement, uploadTheAgreement } from "./hub-steps";
import { checkPage, keepForDocs, PHONE } from "./page-checks";
import { startReceiver } from "../e2e/receiver";

// Issue 23: the business on a phone (390x844), in the client hub, from the link its adviser sent:
// the token traded for a cookie (303) → a reply to the lender → a statement uploaded against the
// lender's request → the offer reviewed and accepted → the payout account given (inputs a thumb can
// use: 16 px text, 44 px high, the numeric keypad for sort code and account number) → the agreement
// signed. Every page state: nothing scrolls sideways, axe clean (a screenshot if not); the chosen ones are
// copied to docs/portal/hub-*.png for docs/portal.md and docs/client-hub.md.
// Issue 45 (the business owner's day): the overview names the adviser and puts a To do card first
// (upload, reply, review; then the account, then signing), no page shows a code, a raw id or a
// size in bytes, and on a second application every offer is declined (issue 41: both webhooks
// arrive, acceptance is then refused in words). The hub takes no amount and no date from the
// business (its forms are an upload, a reply, an offer's answer, a bank account and a signature), so
// the one input rule's "£50k" and "12/03/1975" are walked in the portal's tests, not here.
const browser = chromiumForFile();

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/**
 * What a person reads on a hub page carries no code and no raw id: no `snake_case` value, no
 * `lead_…`/`off_…`/`req_…` id, no `typed_name:` signature, no size in bytes or MiB, no `.bin`.
 */
async function expectPlainWords(page: Page) {
  const text = await page.locator("body").innerText();
  expect(text, "a code in snake_case").not.toMatch(/\b[a-z]+_[a-z_]+\b/);
  expect(text, "a raw id").not.toMatch(/\b(lead|off|ofr|req|doc|msg|org|evt)_[A-Za-z0-9]{6,}/);
  expect(text).not.toMatch(/typed_name|\d bytes|MiB|\.bin\b/);
}

/** The To do card's items, as `kind` → link text. */
const toDoOf = (page: Page) =>
  page.locator("#to-do li").evaluateAll((items) => items.map((li) => [(li as HTMLElement).dataset.toDo, li.textContent?.trim()]));

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
    const { lkey, lead, ref, partner, lender } = await dealWithOffer({
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
      // Who and what: the adviser named, and the To do card first, before the offers (issue 45 item 9).
      expect(await page.locator("#adviser").textContent()).toBe(`Your adviser: ${partner.org.name}`);
      expect(await toDoOf(page)).toEqual([
        ["upload", "Upload: Bank statements for the last 6 months"],
        ["reply", "Reply to the funding provider's message about Business loan"],
        ["review_offer", "Review the offer: Business loan"],
      ]);
      const cardTop = await page.locator("#to-do").evaluate((el) => el.getBoundingClientRect().top);
      expect(cardTop, "the To do card is on the first screen").toBeLessThan(PHONE.height);
      await expectPlainWords(page);
      await checkPhone(page, "overview", true);
      const hub = page.url();

      // A reply to the lender's message, from the card: answered, it leaves the card.
      await replyToTheLender(page, ref, "12 Bread Street, London");
      await expectPlainWords(page);
      await checkPhone(page, "messages", true);
      await page.goto(hub);
      expect((await toDoOf(page)).map(([kind]) => kind)).toEqual(["upload", "review_offer"]);

      // The statement, uploaded against the request.
      await page.goto(hub);
      await page.click(`a[href$="/requests/${requestId}"]`);
      await page.setInputFiles("input[type=file]", { name: "statement-q1.csv", mimeType: "text/csv", buffer: readFileSync("examples/statement-q1.csv") });
      await Promise.all([page.waitForURL(/done=uploaded/), page.click("button[type=submit]")]);
      expect(await page.locator("#request-files").textContent()).toContain("statement-q1.csv");
      expect(await page.locator("#request-files").textContent()).toMatch(/statement-q1\.csv \(\d+ KB, /);
      await expectPlainWords(page);
      await checkPhone(page, "request-uploaded", true);
      // A second file sent by mistake is taken back through its confirm page; the first stays.
      await page.setInputFiles("input[type=file]", { name: "wrong-month.csv", mimeType: "text/csv", buffer: readFileSync("examples/statement-q1.csv") });
      await Promise.all([page.waitForURL(/done=uploaded/), page.click("button[type=submit]")]);
      await page.getByRole("link", { name: "Remove wrong-month.csv" }).click();
      await page.getByRole("heading", { level: 1, name: "Remove a file you sent" }).waitFor();
      await expectPlainWords(page);
      await checkPhone(page, "remove-file", true);
      await Promise.all([page.waitForURL(/done=file_removed/), page.getByRole("button", { name: "Remove the file" }).click()]);
      expect(await page.locator("#request-files").textContent()).not.toContain("wrong-month.csv");
      expect(await page.locator("#request-files").textContent()).toContain("statement-q1.csv");

      // The offer reviewed, then accepted: the notice says what happens next.
      await page.goto(hub);
      expect((await toDoOf(page)).map(([kind]) => kind)).toEqual(["review_offer"]);
      await page.click("#to-do a[href*='/offers/']");
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
      await expectPlainWords(page);
      await checkPhone(page, "offer-accepted");
      await page.goto(hub);
      expect(await toDoOf(page)).toEqual([["give_account", "Give the bank account to pay Business loan into"]]);

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
      // No promise the product does not keep: nothing is e-mailed, so the page says where the agreement will appear.
      expect(await page.locator("main").innerText()).not.toContain("you will be notified");
      await checkPhone(page, "account", true);
      await giveTheAccount(page, "Phone Day Bakery Ltd");

      // The lender uploads the agreement; the business signs it.
      await uploadTheAgreement(ref, lkey, readFileSync("examples/agreement.pdf"));
      await page.goto(hub);
      expect((await toDoOf(page)).map(([kind]) => kind)).toEqual(["sign"]);
      await page.click("#to-do a");
      const signName = await sizeOf(page, "#full_name");
      expect(signName.font).toBeGreaterThanOrEqual(16);
      expect(signName.height).toBeGreaterThanOrEqual(44);
      await checkPhone(page, "sign", true);
      // A full name is two words in a GB agreement (issue 45 item 11): one is refused in words, beside the field.
      await page.fill("#full_name", "Mary");
      await page.check("input[name=consent]");
      // Every post the page sends, and what each navigation answered (issue 45 item 11: Back after a refused post).
      const posts: string[] = [];
      const navigations: Response[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST") posts.push(r.url());
      });
      page.on("response", (r) => {
        if (r.request().isNavigationRequest()) navigations.push(r);
      });
      await page.click("form[action$='/signature'] button[type=submit]");
      expect(await page.locator("#form-error").textContent()).toContain("Type your full name, your first name and your last name");
      expect(await page.locator("#full_name-error").textContent()).toContain("Type your full name, your first name and your last name");
      expect(await page.getAttribute("#full_name", "aria-invalid")).toBe("true");
      const refusedSign = navigations.at(-1)!;
      await signTheAgreement(page, "Mary Berry");
      await expectPlainWords(page);
      await checkPhone(page, "signed", true);
      expect(posts).toHaveLength(2);
      // Back from the signed page is a GET of the completion page (its one-time refusal spent: the page as it is now), never the refused post sent again.
      const back = await page.goBack();
      expect(back?.request().method()).toBe("GET");
      expect(back?.status()).toBe(200);
      expect(posts).toHaveLength(2);
      // The refusal was shown by that GET (post/redirect/get), with the refusal's status, as the post answered it before.
      expect(refusedSign.request().method()).toBe("GET");
      expect(refusedSign.url()).toMatch(/\/completion\?refused=/);
      expect(refusedSign.status()).toBe(422);
      expect(await page.locator("#signed").textContent()).toContain("Signed");
      await page.goto(hub);
      expect(await page.locator("#to-do").innerText()).toContain("Nothing for you to do right now.");
      await expectPlainWords(page);
    } finally {
      await context.close();
    }

    const events = await http("GET", `${baseUrl()}/v1/events?subject=${ref}`, { headers: lkey });
    const names = events.body.events.map((e: any) => e.event);
    for (const event of ["message.created", "request.fulfilled", "offer.accepted", "deal.account_submitted", "deal.agreement_signed"]) expect(names).toContain(event);
  });

  it("declines the only offer of another application: both webhooks arrive, the overview says so, acceptance is refused in words", { timeout: 180_000 }, async () => {
    const name = `Phone Decline Bakery ${Date.now()} Ltd`;
    const { lkey, pkey, lead, ref } = await dealWithOffer({
      productId: `hub-decline-${Date.now()}`,
      // A company of its own: one another partner already introduced would end out of scope.
      business: { name, company_number: `0${String(Date.now()).slice(-7)}` },
      contact: { first_name: "Paul", last_name: "Hollywood", email: "paul@bakery.example" },
    });
    expect((await http("POST", `${baseUrl()}/v1/webhooks`, { headers: lkey, body: { url: receiver.url, events: ["offer.declined"] } })).status).toBe(201);
    expect((await http("POST", `${baseUrl()}/partner/v1/webhooks`, { headers: pkey, body: { url: receiver.url, events: ["lead.offer_declined"] } })).status).toBe(201);
    const context = await browser().newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      await page.goto(lead.body.upload_url);
      const hub = page.url();
      await page.click("#to-do a[href*='/offers/']");
      const offerPage = page.url();
      await page.check("input[name=reason_code][value=terms_not_suitable]");
      await Promise.all([page.waitForURL(/done=declined/), page.click("button:text-is('Decline this offer')")]);
      expect(await page.locator("p.notice").textContent()).toContain("You declined the offer.");
      expect(await page.locator("button:text-is('Accept this offer')").count()).toBe(0);
      await expectPlainWords(page);
      await checkPhone(page, "offer-declined", true);

      // Both sides are told: the lender's offer.declined and the partner's lead.offer_declined.
      await receiver.waitFor((r) => r.headers["x-service-event"] === "offer.declined" && r.raw.includes(ref));
      const told = await receiver.waitFor((r) => r.headers["x-service-event"] === "lead.offer_declined" && r.raw.includes(lead.body.id));
      expect(told.raw).toContain('"all_offers_declined":true');

      // Acceptance afterwards: 409 from the API, and the hub refuses in words.
      const offerId = offerPage.split("/offers/")[1]!.split(/[?#]/)[0]!;
      expect((await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/offers/${offerId}/acceptance`, { headers: pkey })).status).toBe(409);
      // The hub's own pages allow no script or fetch (CSP), so the acceptance is posted as a form the page would send.
      const [refused] = await Promise.all([
        // Refused, the post is answered 303 to the offer's page, which shows the refusal with its status.
        page.waitForResponse((r) => r.request().isNavigationRequest() && r.request().method() === "GET" && r.url().includes(`/offers/${offerId}?refused=`)),
        page.evaluate((url) => {
          const form = document.createElement("form");
          form.method = "post";
          form.action = url;
          document.body.append(form);
          form.submit();
        }, `${offerPage.split("?")[0]}/acceptance`),
      ]);
      expect(refused.status()).toBe(409);
      await page.waitForLoadState();
      expect(await page.locator("#form-error").textContent()).toMatch(/declined/i);
      await expectPlainWords(page);

      // The overview says every offer was declined, and asks nothing more of the business.
      await page.goto(hub);
      expect(await page.locator("#all-declined").textContent()).toContain("You declined every offer on your application.");
      expect(await page.locator("main").innerText()).toContain("status Every offer declined by you.");
      expect(await page.locator("#to-do li").count()).toBe(0);
      await expectPlainWords(page);
      await checkPhone(page, "all-declined", true);
    } finally {
      await context.close();
    }
  });
});
