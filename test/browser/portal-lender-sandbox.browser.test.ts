import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { http, lane, newLender } from "../e2e/client";
import { checkPage, fillFirmOffer, portalWalk, press } from "./portal-walk";
import { DESKTOP, PHONE } from "./page-checks";
import { scannedPdf } from "./upload-files";

// A lender rehearses a whole deal from the browser, nothing over the API: the empty sandbox page →
// a test deal → an offer with its fees, total and notes → a document asked for and uploaded by the
// simulated business → a second request waived after its confirmation page → the business accepts,
// gives its account (the work queue shows it) → the agreement uploaded and signed → funded, with the
// outcome in place of the forms. Each page is checked at 1280 and 390 wide (no sideways
// scroll, axe; a screenshot if that fails), and the key screenshots are copied to docs/portal/ for docs/portal.md.
const walk = portalWalk();

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("the lender sandbox in a browser", () => {
  it("a lender rehearses a test deal from creation to funded", { timeout: 300_000 }, async () => {
    const baseUrl = lane().baseUrl;
    const lender = await newLender();
    const { context, page, nav } = await walk.signIn(lender.org.id, "member");

    // The empty sandbox says how to start.
    await nav.getByRole("link", { name: "Test deals" }).click();
    await page.waitForURL((u) => u.pathname === "/portal/sandbox");
    expect(await page.locator("#start").textContent()).toContain("Create a test deal below");
    await checkPage(page, "lender-sandbox-empty", true);

    await page.locator("#amount").fill("60,000");
    await page.getByRole("button", { name: "Create test deal" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/portal/deals/DL-") && u.searchParams.get("notice") === "test_deal_created");
    const ref = new URL(page.url()).pathname.split("/").pop()!;
    expect(await page.locator(".next-step").textContent()).toContain("Waiting on you: New.");
    expect(await nav.textContent()).toContain("Work queue (1)");
    // The register's facts are settled with the deal (the sandbox's fixture), so the page and its screenshot show them every run.
    expect(await page.locator("#register").textContent()).toContain("Registered name");
    await checkPage(page, "lender-test-deal", true);

    // The offer, complete: fees, total to repay, expiry and notes shown as the business sees them.
    await fillFirmOffer(page);
    await page.locator("#expires_at").fill(dayFromNow(14));
    await page.locator("#notes").fill("Subject to the last three months' statements");
    await press(page, "Make offer", "offer_made");
    const offer = await page.locator("#offers [data-offer]").first().textContent();
    expect(offer).toContain("£1,200");
    expect(offer).toContain("£68,900");
    expect(offer).toContain("Subject to the last three months' statements");

    // A document asked for, and the simulated business uploads it; a reply too.
    await page.locator("#item_type").selectOption("vat_returns");
    await press(page, "Request document", "document_requested");
    await press(page, "Upload the requested document", "simulated_request.fulfilled");
    await press(page, "Reply to you", "simulated_message.created");
    expect(await page.locator("#messages").textContent()).toContain("Sandbox reply");

    // A second request, waived after the confirmation page.
    await page.locator("#item_type").selectOption("id_document");
    await press(page, "Request document", "document_requested");
    await page.getByRole("button", { name: /^Waive the request for/ }).last().click();
    await page.waitForURL((u) => u.pathname.endsWith("/waive"));
    expect(await page.locator("h1").textContent()).toBe("Waive this document request?");
    await checkPage(page, "lender-waive-confirm", true);
    await press(page, "Waive the request", "request_waived");

    // The business accepts and gives its account: the deal waits on the lender's agreement.
    await press(page, "Accept the offer", "simulated_offer.accepted");
    await press(page, "Give the payout account", "simulated_deal.account_submitted");
    expect(await page.locator('[data-completion="account"]').textContent()).toMatch(/••••\d{4} \(masked\)/);
    await nav.getByRole("link", { name: /^Work queue/ }).click();
    await page.waitForURL((u) => u.pathname === "/portal/queue");
    expect(await page.locator('[data-stage="account_given"]').textContent()).toContain(ref);
    await checkPage(page, "lender-work-queue", true);

    await page.locator(`[data-deal="${ref}"] a`).first().click();
    await page.waitForURL((u) => u.pathname === `/portal/deals/${ref}`);
    // Issue 38: a real agreement (a 5 MB PDF), uploaded on a phone (390 wide).
    await page.setViewportSize(PHONE);
    await page.locator("#agreement").setInputFiles(scannedPdf("agreement.pdf", 5));
    await press(page, "Upload agreement", "agreement_uploaded");
    expect(await page.locator('[data-completion="agreement"]').textContent()).toMatch(/^yes, /);
    await page.setViewportSize(DESKTOP);
    await press(page, "Sign the agreement", "simulated_deal.agreement_signed");
    expect(await page.locator(".next-step").textContent()).toContain("Signed, awaiting funding");
    await checkPage(page, "lender-deal-signed", true);

    // Funded on its own confirm page: the accepted offer's amount, the day, and the still-open upload warned about.
    await page.getByRole("link", { name: "Report funded…" }).click();
    await page.waitForURL((u) => u.pathname === `/portal/deals/${ref}/funded`);
    expect(await page.locator("#funding-warnings").textContent()).toContain("still open");
    expect(await page.locator("#funded_amount").inputValue()).toBe("60000");
    await press(page, "Report funded", "funded");
    expect(await page.locator('[data-outcome="funded"]').textContent()).toContain("£60,000");
    expect(await page.locator("#report").count()).toBe(0);
    expect(await page.locator("#simulate").count()).toBe(0);
    expect(await nav.textContent()).toContain("Work queue (0)");
    await checkPage(page, "lender-deal-funded", true);

    // The API tells the same story.
    const deal = await http("GET", `${baseUrl}/v1/deals/${ref}`, { headers: { "X-API-Key": lender.sandbox.key } });
    expect(deal.body).toMatchObject({ ref, test: true, lender_status: "funded", completion: { account_submitted: true, agreement_uploaded: true, signed: true } });

    await nav.getByRole("link", { name: "Test deals" }).click();
    await page.waitForURL((u) => u.pathname === "/portal/sandbox");
    expect(await page.locator(`[data-test-deal="${ref}"]`).count()).toBe(1);
    await checkPage(page, "lender-sandbox", true);
    await context.close();
  });
});
