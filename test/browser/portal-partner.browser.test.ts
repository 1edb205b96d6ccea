import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, operator } from "../e2e/client";
import { checkPortalPage, DESKTOP } from "./page-checks";
import { portalWalk } from "./portal-walk";

// A partner's member in a real browser, signed in with a real passkey ceremony: opens a sandbox
// lead (a refusal first, shown beside its field), submits it, sees the simulated offers and
// accepts one; the list, the event log, an edit page and prequalification; a lender's event log.
// Every page is checked at desktop and phone widths: no sideways scroll, axe (a screenshot if that fails).

// One Chromium for the file and a signed-in person per test: the shared walk setup (portal-walk.ts).
const walk = portalWalk();

async function signedIn(kind: "partner" | "lender") {
  const organisation = (await operator("POST", "/organisations", { name: `Portal ${kind} ${Date.now()}`, kind })).body;
  const { page } = await walk.signIn(organisation.id, "member", { viewport: DESKTOP });
  return { organisation, page };
}

const checkPage = checkPortalPage;

const input = (page: Page, name: string) => page.locator(`[name="${name}"]`);

async function fillCompleteUkLead(page: Page) {
  await input(page, "country").selectOption("GB");
  await input(page, "business.name").fill("Portal Widgets Ltd");
  await input(page, "business.company_number").fill("07654321");
  await input(page, "business.entity_type").selectOption("private_limited_company");
  await input(page, "business.industry").selectOption("retail");
  await input(page, "contact.first_name").fill("Grace");
  await input(page, "contact.last_name").fill("Hopper");
  await input(page, "contact.email").fill("grace@widgets.example");
  await input(page, "funding.amount").fill("40000");
  await input(page, "funding.purpose").selectOption("working_capital");
  await input(page, "trading.monthly_revenue").fill("30000");
  await input(page, "trading.tib_months").fill("48");
  await input(page, "consent.obtained").check();
}

describe("the partner portal in a browser", () => {
  it("opens and submits a sandbox lead, sees the simulated offers and accepts one", { timeout: 180_000 }, async () => {
    // A panel product the sandbox lead matches, so its simulated offers exist.
    const lender = (await operator("POST", "/organisations", { name: `Portal panel ${Date.now()}`, kind: "lender" })).body;
    const product = {
      id: `portal-loan-${Date.now()}`, product_family: "business_loan", label: "Term loan 12-36 months", markets: ["GB"],
      min_amount: 10000, max_amount: 250000, min_monthly_revenue: 5000, min_months_trading: 12,
      pricing: { annual_rate_pct: { min: 8, max: 16 }, term_months: { min: 12, max: 36 }, fee_pct: 2 },
    };
    expect((await operator("PUT", `/organisations/${lender.id}/products`, { products: [product] })).status).toBe(200);

    const { page } = await signedIn("partner");
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    await checkPage(page, "partner-overview");

    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "New lead" }).click();
    await page.getByRole("heading", { name: "New lead" }).waitFor();
    await checkPage(page, "partner-lead-new");

    // A refusal: the person's message beside the field (web/kit/messages.ts), the field focused, the inputs kept.
    await fillCompleteUkLead(page);
    await input(page, "contact.email").fill("not-an-email");
    await page.getByRole("button", { name: "Save and check your answers" }).click();
    const emailError = page.locator('[id="contact.email-error"]');
    await emailError.waitFor();
    expect(await emailError.textContent()).toBe("Enter the email like name@example.com.");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("contact.email");
    expect(await input(page, "business.name").inputValue()).toBe("Portal Widgets Ltd");
    await checkPage(page, "partner-lead-new-refused");

    await input(page, "contact.email").fill("grace@widgets.example");
    await page.getByRole("button", { name: "Save and check your answers" }).click();
    // Submitted only from "Check your answers" (issue 45 item 1).
    await page.getByRole("heading", { name: "Check your answers before submitting" }).waitFor();
    await page.getByRole("button", { name: "Submit the application" }).click();
    await page.getByText("The lead was submitted.").waitFor();
    expect(await page.content()).toContain("Offers available");
    // Accepting on the client's behalf goes through a review step (issue 23 item 7).
    const review = page.getByRole("link", { name: /^Review and accept / });
    expect(await review.count()).toBeGreaterThan(0);
    await checkPage(page, "partner-lead-offers");

    await review.first().click();
    await page.getByRole("button", { name: /^Accept / }).click();
    await page.getByText("The offer was accepted.").waitFor();
    expect(await page.content()).toContain("Offer accepted");
    expect(await page.getByRole("link", { name: /^Review and accept / }).count()).toBe(0);
    await checkPage(page, "partner-lead-accepted");

    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Leads" }).click();
    await page.getByRole("heading", { name: "Leads" }).waitFor();
    expect(await page.getByRole("textbox", { name: /^The lead reference RF-/ }).count()).toBe(1);
    await checkPage(page, "partner-leads");

    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Events" }).click();
    await page.getByRole("heading", { name: "Events" }).waitFor();
    expect(await page.content()).toContain("lead.offer_accepted");
    await checkPage(page, "partner-events");

    // A draft to fill in later: its edit page.
    await page.goto(`${baseUrl()}/portal/leads/new`);
    await input(page, "business.name").fill("Later Ltd");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("The lead was opened as a draft.").waitFor();
    await checkPage(page, "partner-lead-draft");
    await page.getByRole("link", { name: "Fill in the draft" }).click();
    await page.getByRole("heading", { name: /^Edit lead / }).waitFor();
    expect(await input(page, "business.name").inputValue()).toBe("Later Ltd");
    await checkPage(page, "partner-lead-edit");
  });

  it("answers prequalification from a form", { timeout: 120_000 }, async () => {
    const { page } = await signedIn("partner");
    await page.goto(`${baseUrl()}/portal/prequalification`);
    await checkPage(page, "partner-prequalification");
    await page.getByRole("button", { name: "Check eligibility" }).click();
    await page.locator('[id="funding.purpose-error"]').waitFor();
    await checkPage(page, "partner-prequalification-refused");
    await input(page, "funding.purpose").selectOption("working_capital");
    await input(page, "funding.amount").fill("40000");
    await input(page, "trading.monthly_revenue").fill("30000");
    await input(page, "trading.tib_months").fill("48");
    await page.getByRole("button", { name: "Check eligibility" }).click();
    await page.getByText("Indicative only").waitFor();
    await checkPage(page, "partner-prequalification-answer");
  });

  it("shows a lender's member the lender event log and no partner page", { timeout: 120_000 }, async () => {
    const { page } = await signedIn("lender");
    const leads = await page.goto(`${baseUrl()}/portal/leads`);
    expect(leads?.status()).toBe(404);
    await page.goto(`${baseUrl()}/portal/events`);
    await page.getByRole("heading", { name: "Events" }).waitFor();
    await checkPage(page, "lender-events");
  });
});
