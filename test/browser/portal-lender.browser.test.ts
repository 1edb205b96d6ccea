import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { http, lane, newLender } from "../e2e/client";
import { checkPage, portalWalk, press } from "./portal-walk";

// The credit analyst's day (issue 45), in Chromium at 1280, signed in with a real passkey ceremony:
// overview → deals → a sandbox test deal (made over the lender API, as an integrator would) → in
// review (it stays in the work queue, under its stage) → the directors table → a refused offer with
// the message beside the field → a firm offer → the client's reply brings the deal back to the queue
// → another deal declined on its own confirm page with coded reasons → Funded refused before the
// acceptance, then confirmed with the amount and the day. Every page is checked at 1280 and 390 (no
// sideways scroll, axe; a screenshot if that fails) and its visible text holds no code or raw id.
const walk = portalWalk();

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Developer words in what the person reads: snake_case codes, prefixed ids, the labels issue 45 item 10 named. */
async function expectNoCodes(page: Page, where: string) {
  const text = await page.locator("main").innerText();
  const found = [
    ...[...text.matchAll(/(?<![\w.@/-])[a-z]+(?:_[a-z0-9]+)+(?![\w@-])/g)].map((m) => m[0]),
    ...[...text.matchAll(/\b(?:off|req|doc|msg|mbr|mem|note|lead|org|dreq)_[A-Za-z0-9]{6,}\b/g)].map((m) => m[0]),
    ...["Deal status", "Identifier:", "(UTC)", "Channel name", "major units", "typed_name"].filter((w) => text.includes(w)),
  ];
  expect({ where, found }).toEqual({ where, found: [] });
}

/** The page's checks (widths, axe), its docs screenshot when asked, and no developer words. */
async function walkPage(page: Page, name: string, docs = false) {
  await expectNoCodes(page, name);
  await checkPage(page, name, docs);
}

describe("the lender portal in a browser", () => {
  it("a credit analyst's day: the queue's stages, the directors, an offer, a decline and a funding, each confirmed", { timeout: 300_000 }, async () => {
    const baseUrl = lane().baseUrl;
    const lender = await newLender();
    const key = { "X-API-Key": lender.sandbox.key };
    const made = await http("POST", `${baseUrl}/v1/test/deals`, { headers: key, body: {} });
    expect(made.status).toBe(201);
    const ref: string = made.body.ref;
    const other = await http("POST", `${baseUrl}/v1/test/deals`, { headers: key, body: {} });
    const declineRef: string = other.body.ref;

    const { context, page, nav } = await walk.signIn(lender.org.id, "member");
    expect(await page.textContent("main")).toContain("Deals by your status");
    expect(await page.locator('td[data-status="new"]').textContent()).toBe("2");
    await walkPage(page, "lender-overview");

    await page.getByRole("link", { name: "New", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/portal/deals" && u.searchParams.get("status") === "new");
    await walkPage(page, "lender-deals");
    await page.getByRole("link", { name: new RegExp(`open deal ${ref}$`) }).click();
    await page.waitForURL((u) => u.pathname === `/portal/deals/${ref}`);
    expect(await page.locator("#register").textContent()).toContain("Registered name");
    // The directors as a table, application and register side by side.
    const directors = page.locator("#directors table");
    expect(await directors.locator("th").allTextContents()).toEqual(expect.arrayContaining(["Name", "Date of birth (application)", "Share (application)", "Role (register)"]));
    expect(await directors.locator("tbody tr").count()).toBeGreaterThan(0);
    await walkPage(page, "lender-deal", true);

    // In review: the deal stays in the work queue, under its own stage.
    await press(page, "Mark in review", "status_reported");
    await nav.getByRole("link", { name: /^Work queue/ }).click();
    await page.waitForURL((u) => u.pathname === "/portal/queue");
    expect(await page.locator('[data-stage="in_review"] h2').textContent()).toBe("In review: offer or decline (1)");
    expect(await page.locator(`[data-stage="in_review"] [data-deal="${ref}"]`).count()).toBe(1);
    expect(await page.locator(`[data-stage="new"] [data-deal="${declineRef}"]`).count()).toBe(1);
    expect(await page.locator(`[data-deal="${ref}"] [data-age]`).textContent()).toBe("Received today");
    await walkPage(page, "lender-queue-stages", true);

    // Terms without a rate are refused beside the rate, and nothing is made.
    await page.locator(`[data-deal="${ref}"] a`).first().click();
    await page.waitForURL((u) => u.pathname === `/portal/deals/${ref}`);
    await page.locator("#maturity").selectOption("firm");
    await page.locator("#amount").fill("40000");
    await page.locator("#term_months").fill("24");
    await page.getByRole("button", { name: "Make offer" }).click();
    await page.waitForLoadState();
    expect(await page.locator("#annual_rate_pct-error").textContent()).toBe("Give a yearly rate or a factor rate: one of them, not both.");
    expect(await page.locator("#annual_rate_pct").getAttribute("aria-describedby")).toBe("annual_rate_pct-error");
    expect(await page.locator("#amount").inputValue()).toBe("40000");
    await walkPage(page, "lender-deal-refused");

    await page.locator("#annual_rate_pct").fill("11.5");
    await page.locator("#fees").fill("800");
    await page.locator("#total_repayment").fill("45900");
    await page.locator("#expires_at").fill(dayFromNow(14));
    await press(page, "Make offer", "offer_made");
    expect(await page.locator("#offers [data-offer]").first().textContent()).toMatch(/firm/i);
    const offers = await http("GET", `${baseUrl}/v1/deals/${ref}/offers`, { headers: key });
    expect(offers.body.offers).toEqual([expect.objectContaining({ maturity: "firm", amount: 40000, annual_rate_pct: 11.5, term_months: 24, status: "presented" })]);

    // Funded before the business accepted: no button, and the page says why in words.
    expect(await page.getByRole("link", { name: "Report funded…" }).count()).toBe(0);
    expect(await page.locator("#funded-not-yet").textContent()).toContain("only after the business accepts your offer");
    await page.goto(`${baseUrl}/portal/deals/${ref}/funded`);
    expect(await page.locator("main").textContent()).toContain("only after the business accepts your offer");
    await page.goto(`${baseUrl}/portal/deals/${ref}`);

    // A message out: the deal waits on the business and leaves the queue; the client's reply brings it back.
    await page.locator("#body").fill("Thanks, the firm terms are on the deal.");
    await press(page, "Send message", "message_sent");
    await press(page, "Reply to you", "simulated_message.created");
    await nav.getByRole("link", { name: /^Work queue/ }).click();
    await page.waitForURL((u) => u.pathname === "/portal/queue");
    expect(await page.locator(`[data-stage="client_replied"] [data-deal="${ref}"]`).count()).toBe(1);
    await walkPage(page, "lender-queue-replied");

    // The other deal declined on its own confirm page, with coded reasons and a note.
    await page.locator(`[data-deal="${declineRef}"] a`).first().click();
    await page.waitForURL((u) => u.pathname === `/portal/deals/${declineRef}`);
    await page.getByRole("link", { name: "Decline…" }).click();
    await page.waitForURL((u) => u.pathname === `/portal/deals/${declineRef}/decline`);
    expect(await page.locator("h1").textContent()).toBe("Decline this deal?");
    await page.getByRole("button", { name: "Decline the deal" }).click();
    await page.waitForLoadState();
    expect(await page.locator("#reasons-error").textContent()).toContain("Choose at least one reason");
    await walkPage(page, "lender-decline-confirm", true);
    await page.getByLabel("The repayments do not look affordable").check();
    await page.locator("#note").fill("Repayments above a third of monthly revenue");
    await press(page, "Decline the deal", "declined");
    expect(await page.locator('[data-outcome="declined"]').count()).toBe(1);
    await walkPage(page, "lender-deal-declined");

    // The business accepts: Funded is offered, on its own page, with the amount and the day.
    await page.goto(`${baseUrl}/portal/deals/${ref}`);
    await press(page, "Accept the offer", "simulated_offer.accepted");
    await page.getByRole("link", { name: "Report funded…" }).click();
    await page.waitForURL((u) => u.pathname === `/portal/deals/${ref}/funded`);
    expect(await page.locator("h1").textContent()).toBe("Report this deal funded?");
    expect(await page.locator("#funding-warnings").textContent()).toContain("You have not uploaded the agreement");
    expect(await page.locator("#funded_amount").inputValue()).toBe("40000");
    await walkPage(page, "lender-funded-confirm", true);
    await press(page, "Report funded", "funded");
    expect(await page.locator('[data-outcome="funded"]').textContent()).toContain("£40,000");
    await walkPage(page, "lender-deal-funded-confirmed");

    const deal = await http("GET", `${baseUrl}/v1/deals/${ref}`, { headers: key });
    expect(deal.body).toMatchObject({ lender_status: "funded", funded_amount: 40000 });
    await context.close();
  });
});
