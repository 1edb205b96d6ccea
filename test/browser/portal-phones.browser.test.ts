import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { lane, newLender } from "../e2e/client";
import { startReceiver } from "../e2e/receiver";
import { chromiumForFile } from "./browser";
import { fillFirmOffer, press } from "./portal-walk";
import { graveAxeViolations, PHONE, screenshotFor } from "./page-checks";
import { signInWithNewPasskey } from "./portal-sign-in";

// Issue 23 item 14 on a phone (390 px): the keys table, the deals list, the deal page's offers,
// documents and requests, and a webhook endpoint's delivery log are cards, not tables: nothing scrolls
// sideways, a revoked key visibly says Revoked, no button is cut off (each button's box inside the
// viewport), axe finds nothing serious or critical. And the one copy control (item 9) copies a deal's
// reference to the clipboard and says "Copied" in its live region.
const browser = chromiumForFile();

/** The page at 390 px: no sideways scroll, every visible button whole in the viewport, axe clean; its screenshot kept if a check fails (every one with E2E_SCREENSHOTS=1). */
async function checkPhone(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  await screenshotFor(page, `test-artifacts/portal/phone-${name}-390.png`, async () => {
    const layout = await page.evaluate(() => {
      const width = window.innerWidth;
      const cut = Array.from(document.querySelectorAll("button, a.button, input[type=submit]"))
        .filter((el) => {
          const style = getComputedStyle(el);
          return !(el as HTMLElement).hidden && style.display !== "none" && style.visibility !== "hidden" && el.getClientRects().length > 0;
        })
        .map((el) => ({ text: (el.textContent ?? "").trim(), box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.left < 0 || box.right > width + 0.5)
        .map(({ text, box }) => `${text} [${Math.round(box.left)}, ${Math.round(box.right)}]`);
      return { scrollWidth: document.documentElement.scrollWidth, width, cut };
    });
    expect(layout.scrollWidth, `${name} scrolls sideways`).toBeLessThanOrEqual(layout.width);
    expect(layout.cut, `${name}: buttons cut off at ${layout.width}`).toEqual([]);
    // The records are cards: a table's header row is not shown at this width.
    for (const table of await page.locator("table.records").all()) {
      expect(await table.locator("thead").evaluate((el) => el.getBoundingClientRect().height <= 1)).toBe(true);
    }
    expect(await graveAxeViolations(page), `${name}: axe at 390`).toEqual([]);
  });
}

describe("the portal on a phone", () => {
  it("shows keys, deals and the delivery log as cards at 390 px, and copies a reference", { timeout: 300_000 }, async () => {
    const baseUrl = lane().baseUrl;
    const lender = await newLender();
    const context = await browser().newContext({ viewport: PHONE });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    const page = await signInWithNewPasskey(context, { baseUrl, adminToken: inject("adminToken"), organisationId: lender.org.id, role: "admin" });
    const receiver = await startReceiver();
    try {
      // Keys: two made here, one revoked through its confirm page.
      await page.goto(`${baseUrl}/portal/keys`);
      for (let i = 0; i < 2; i++) {
        await page.getByRole("button", { name: "Create key" }).click();
        await page.getByRole("heading", { name: "Your new API key" }).waitFor();
        await page.getByRole("link", { name: "Back to the API keys" }).click();
        await page.getByRole("heading", { name: "API keys" }).waitFor();
      }
      await page.getByRole("link", { name: "Revoke" }).first().click();
      await page.getByRole("button", { name: "Revoke the key" }).click();
      await page.getByText("The key is revoked").waitFor();
      const revoked = page.locator("table.records tr.inactive").first();
      expect(await revoked.isVisible()).toBe(true);
      expect(await revoked.innerText()).toContain("Revoked");
      expect(await revoked.getByRole("button").count()).toBe(0);
      await checkPhone(page, "keys");

      // A test deal with an offer, a document asked for and uploaded, and a second request: the deal's tables.
      await page.goto(`${baseUrl}/portal/sandbox`);
      await page.locator("#amount").fill("60,000");
      await page.getByRole("button", { name: "Create test deal" }).click();
      await page.waitForURL((u) => u.pathname.startsWith("/portal/deals/DL-") && u.searchParams.get("notice") === "test_deal_created");
      const ref = new URL(page.url()).pathname.split("/").pop()!;
      await fillFirmOffer(page);
      await press(page, "Make offer", "offer_made");
      await page.locator("#item_type").selectOption("vat_returns");
      await press(page, "Request document", "document_requested");
      await press(page, "Upload the requested document", "simulated_request.fulfilled");
      await page.locator("#item_type").selectOption("id_document");
      await press(page, "Request document", "document_requested");
      await checkPhone(page, "deal");

      // The reference's copy control: the button copies it and the live region says so.
      const copy = page.getByRole("button", { name: `Copy the deal reference ${ref}` });
      const seen = await page.evaluate(() => ({ clipboard: Boolean(navigator.clipboard), secure: window.isSecureContext, origin: location.origin, buttons: Array.from(document.querySelectorAll("button[data-copy]")).map((b) => `${b.getAttribute("aria-label")} hidden=${(b as HTMLElement).hidden}`) }));
      expect(seen).toEqual({ clipboard: true, secure: true, origin: expect.any(String), buttons: [`Copy the deal reference ${ref} hidden=false`] });
      expect(await copy.isVisible()).toBe(true);
      await copy.click();
      await page.locator('[data-copy-status="copy-deal-reference"]').filter({ hasText: "Copied" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ref);

      await page.goto(`${baseUrl}/portal/deals`);
      expect(await page.locator(`tr[data-deal="${ref}"]`).isVisible()).toBe(true);
      await checkPhone(page, "deals");

      // A webhook endpoint on a local receiver, pinged: its delivery log.
      await page.goto(`${baseUrl}/portal/webhooks`);
      await page.getByLabel("URL (https on a public host)").fill(receiver.url);
      for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
      await page.getByRole("checkbox", { name: /deal\.created/ }).check();
      await page.getByRole("button", { name: "Register endpoint" }).click();
      await page.getByRole("heading", { name: "Webhook endpoint registered" }).waitFor();
      await checkPhone(page, "webhook-registered");
      await page.getByRole("link", { name: "Go to the endpoint and its delivery log" }).click();
      await page.getByRole("button", { name: "Send a test ping" }).click();
      await page.getByText("The test ping was delivered: your receiver answered HTTP 200.").waitFor();
      const log = page.getByRole("region", { name: "Delivery log" });
      expect(await log.locator("table.records tr[data-delivery]").count()).toBeGreaterThan(0);
      await log.getByText("Request payload").first().click();
      await checkPhone(page, "webhook-delivery-log");
      await page.goto(`${baseUrl}/portal/webhooks`);
      await checkPhone(page, "webhooks");
    } finally {
      await receiver.close();
      await context.close();
    }
  });
});
