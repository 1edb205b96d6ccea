/**
 * What the portal's browser walks (a partner's day, a member, the lender sandbox) share: one Chromium
 * for the file, started before its tests and closed after them; a person of an organisation signed
 * in with a new passkey in a fresh browser context; and the page check (1280 and 390 wide, screenshot,
 * no sideways scroll, axe) that also keeps the desktop screenshot for docs/portal.md.
 */
import type { BrowserContextOptions, Page } from "playwright-core";
import { inject } from "vitest";
import { lane } from "../e2e/client";
import { chromiumForFile } from "./browser";
import { checkPortalPage, DESKTOP, keepForDocs } from "./page-checks";
import { signInWithNewPasskey } from "./portal-sign-in";

/** Starts Chromium for the calling file (see chromiumForFile); `signIn` opens a signed-in page in a test, `browser` is the file's Chromium. */
export function portalWalk() {
  const browser = chromiumForFile();
  return {
    browser,
    /**
     * A new person of the organisation, invited with `role` and signed in with a new passkey in a fresh
     * context (`options`, e.g. a viewport): the page at /portal, its context and the portal's navigation.
     * Closing the file's Chromium closes the context.
     */
    async signIn(organisationId: string, role: "admin" | "member", options?: BrowserContextOptions) {
      const context = await browser().newContext(options);
      const page = await signInWithNewPasskey(context, { baseUrl: lane().baseUrl, adminToken: inject("adminToken"), organisationId, role });
      return { context, page, nav: page.getByRole("navigation", { name: "Portal" }) };
    },
  };
}

/** Checks the page, then keeps its desktop screenshot as docs/portal/<name>.png when `docs` is set. */
export async function checkPage(page: Page, name: string, docs = false) {
  await checkPortalPage(page, name);
  if (docs) {
    // With fixed example values in place of times, references and ids, so a re-run leaves the PNG alone.
    await keepForDocs(page, `${name}.png`, DESKTOP);
  }
}

/** Presses a form's button and waits for the page that says `notice` (the post/redirect/get's `?notice=`). */
export async function press(page: Page, button: string, notice: string) {
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("notice") === notice);
}

/** Fills the deal page's offer form with the walks' firm offer (£60,000 at 11.5% over 24 months, fees and total written as people write them). */
export async function fillFirmOffer(page: Page) {
  await page.locator("#maturity").selectOption("firm");
  await page.locator("#amount").fill("60000");
  await page.locator("#annual_rate_pct").fill("11.5");
  await page.locator("#term_months").fill("24");
  await page.locator("#fees").fill("1,200");
  await page.locator("#total_repayment").fill("68,900");
}
