import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { http, lane, newLender } from "../e2e/client";
import { checkPortalPage } from "./page-checks";
import { portalWalk } from "./portal-walk";

// A lender's path in Chromium, signed in with a real passkey ceremony: overview → deals → a
// sandbox test deal (made over the lender API, as an integrator would) → in review → a refused
// offer with the message beside the field → a firm offer the partner side would see. Every lender
// page is checked at desktop and phone widths (no sideways scroll, axe; a screenshot if that fails).
// One Chromium for the file and a signed-in person per test: the shared walk setup (portal-walk.ts).
const walk = portalWalk();

const checkPage = checkPortalPage;

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("the lender portal in a browser", () => {
  it("a lender goes from a deal to a firm offer", { timeout: 300_000 }, async () => {
    const baseUrl = lane().baseUrl;
    const lender = await newLender();
    const made = await http("POST", `${baseUrl}/v1/test/deals`, { headers: { "X-API-Key": lender.sandbox.key }, body: {} });
    expect(made.status).toBe(201);
    const ref: string = made.body.ref;

    const { context, page } = await walk.signIn(lender.org.id, "member");
    expect(await page.textContent("main")).toContain("Deals by your status");
    expect(await page.locator('td[data-status="new"]').textContent()).toBe("1");
    await checkPage(page, "lender-overview");

    await page.getByRole("link", { name: "New", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/portal/deals" && u.searchParams.get("status") === "new");
    await checkPage(page, "lender-deals");
    await page.getByRole("link", { name: ref }).click();
    await page.waitForURL((u) => u.pathname === `/portal/deals/${ref}`);
    expect(await page.locator("#register").textContent()).toContain("Registered name");
    await checkPage(page, "lender-deal");

    // In review first.
    await page.locator("#status").selectOption("in_review");
    await page.getByRole("button", { name: "Report status" }).click();
    await page.waitForURL((u) => u.searchParams.get("notice") === "status_reported");
    expect(await page.locator("p.notice[data-outcome]").textContent()).toContain("Your status was reported");

    // Terms without a rate are refused beside the rate, and nothing is made.
    await page.locator("#maturity").selectOption("firm");
    await page.locator("#amount").fill("40000");
    await page.locator("#term_months").fill("24");
    await page.getByRole("button", { name: "Make offer" }).click();
    await page.waitForLoadState();
    expect(await page.locator("#annual_rate_pct-error").textContent()).toBe("Give a yearly rate or a factor rate: one of them, not both.");
    expect(await page.locator("#annual_rate_pct").getAttribute("aria-describedby")).toBe("annual_rate_pct-error");
    expect(await page.locator("#amount").inputValue()).toBe("40000");
    await checkPage(page, "lender-deal-refused");

    await page.locator("#annual_rate_pct").fill("11.5");
    await page.locator("#fees").fill("800");
    await page.locator("#total_repayment").fill("45900");
    await page.locator("#expires_at").fill(dayFromNow(14));
    await page.getByRole("button", { name: "Make offer" }).click();
    await page.waitForURL((u) => u.searchParams.get("notice") === "offer_made");
    expect(await page.locator("#offers [data-offer]").first().textContent()).toMatch(/firm/i);

    // The API sees the same offer: one code path.
    const offers = await http("GET", `${baseUrl}/v1/deals/${ref}/offers`, { headers: { "X-API-Key": lender.sandbox.key } });
    expect(offers.body.offers).toEqual([expect.objectContaining({ maturity: "firm", amount: 40000, annual_rate_pct: 11.5, term_months: 24, status: "presented" })]);
    const deal = await http("GET", `${baseUrl}/v1/deals/${ref}`, { headers: { "X-API-Key": lender.sandbox.key } });
    expect(deal.body.lender_status).toBe("offer_made");

    // A message and the agreement, through the same page.
    await page.locator("#body").fill("Thanks, the firm terms are on the deal.");
    await page.getByRole("button", { name: "Send message" }).click();
    await page.waitForURL((u) => u.searchParams.get("notice") === "message_sent");
    await page.locator("#agreement").setInputFiles({ name: "agreement.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n") });
    await page.getByRole("button", { name: "Upload agreement" }).click();
    await page.waitForURL((u) => u.searchParams.get("notice") === "agreement_uploaded");
    expect(await page.locator('td[data-completion="agreement"]').textContent()).toMatch(/^yes/);
    await checkPage(page, "lender-deal-offered");
    await context.close();
  });
});
