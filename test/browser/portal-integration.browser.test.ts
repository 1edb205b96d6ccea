import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, http, operator } from "../e2e/client";
import { startReceiver, verifyWithNodeCrypto } from "../e2e/receiver";
import { checkPortalPage, DESKTOP } from "./page-checks";
import { portalWalk } from "./portal-walk";

// An organisation admin's integration pages in a real browser, signed in with a real passkey
// ceremony: keys (shown once, working over HTTP, stopped by revocation on the next request) and
// webhook endpoints (registered against a local receiver, pinged, the ping in the delivery log).
// Every page is checked at desktop and phone widths: no sideways scroll, axe (a screenshot if that fails).

// One Chromium for the file and a signed-in person per test: the shared walk setup (portal-walk.ts).
const walk = portalWalk();

async function signedInAdmin(kind: "partner" | "lender") {
  const organisation = (await operator("POST", "/organisations", { name: `Portal ${kind} ${Date.now()}`, kind })).body;
  const { page } = await walk.signIn(organisation.id, "admin", { viewport: DESKTOP });
  return { organisation, page };
}

const checkPage = checkPortalPage;

const shownSecret = async (page: Page) => (await page.locator("input[data-secret]").inputValue()).trim();

describe("the portal's keys and webhooks in a browser", () => {
  it("shows a new key once; it authenticates over HTTP until it is revoked in the page", { timeout: 120_000 }, async () => {
    const { organisation, page } = await signedInAdmin("partner");
    await page.goto(`${baseUrl()}/portal/keys`);
    await checkPage(page, "keys");

    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("heading", { name: "Your new API key" }).waitFor();
    const key = await shownSecret(page);
    expect(key).toMatch(/^rfs_ptr_sandbox_[a-z0-9]{16}_[a-z0-9]{40}$/);
    await checkPage(page, "key-created");

    const me = await http("GET", `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": key } });
    expect(me.status).toBe(200);
    expect(me.body.organisation.id).toBe(organisation.id);

    // Back on the list: the client id, never the key again.
    const clientId = key.slice(0, key.lastIndexOf("_"));
    await page.getByRole("link", { name: "Back to the API keys" }).click();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    expect(await page.content()).toContain(clientId);
    expect(await page.content()).not.toContain(key);

    // Revoke asks first, on its own page: the client id among the facts, then the one button that revokes.
    await page.getByRole("row", { name: new RegExp(clientId) }).getByRole("link", { name: "Revoke" }).click();
    await page.getByRole("heading", { name: `Revoke ${clientId}?` }).waitFor();
    expect((await http("GET", `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": key } })).status).toBe(200);
    await checkPage(page, "key-revoke-confirm");
    await page.getByRole("button", { name: "Revoke the key" }).click();
    await page.getByText("The key is revoked").waitFor();
    const refused = await http("GET", `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": key } });
    expect(refused.status).toBe(401);
    await checkPage(page, "keys-revoked");
  });

  it("gives a lender admin a lender key that works on the lender API", { timeout: 120_000 }, async () => {
    const { page } = await signedInAdmin("lender");
    await page.goto(`${baseUrl()}/portal/keys`);
    await checkPage(page, "keys-lender");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await shownSecret(page);
    expect(key).toMatch(/^rfs_lnd_sandbox_/);
    expect((await http("GET", `${baseUrl()}/v1/me`, { headers: { "X-API-Key": key } })).status).toBe(200);
  });

  it("registers an endpoint on a local receiver and shows its signed test ping in the delivery log", { timeout: 300_000 }, async () => {
    const receiver = await startReceiver();
    try {
      const { page } = await signedInAdmin("partner");
      await page.goto(`${baseUrl()}/portal/webhooks`);
      await checkPage(page, "webhooks");

      // A refusal first: the message stands beside the field, nothing is registered.
      await page.getByLabel("URL (https on a public host)").fill(`${receiver.url}`);
      for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
      await page.getByRole("button", { name: "Register endpoint" }).click();
      await page.locator("#events-error").waitFor();
      await checkPage(page, "webhooks-refused");

      await page.getByRole("checkbox", { name: /lead\.funded/ }).check();
      await page.getByRole("button", { name: "Register endpoint" }).click();
      await page.getByRole("heading", { name: "Webhook endpoint registered" }).waitFor();
      const secret = await shownSecret(page);
      expect(secret).toMatch(/^whsec_/);
      await checkPage(page, "webhook-registered");

      await page.getByRole("link", { name: "Go to the endpoint and its delivery log" }).click();
      await page.getByRole("heading", { name: "Webhook endpoint" }).waitFor();
      expect(await page.content()).not.toContain(secret);
      await page.getByRole("button", { name: "Send a test ping" }).click();
      await page.getByText("The test ping was delivered: your receiver answered HTTP 200.").waitFor();
      const log = page.getByRole("region", { name: "Delivery log" });
      expect(await log.textContent()).toContain("ping");
      expect(await log.textContent()).toContain("HTTP 200");
      await checkPage(page, "webhook");
      // The delivery log unfolded: the receiver's answer and the signed payload, wrapped at 390 px too.
      await log.getByText("Response body").first().click();
      await log.getByText("Request payload").first().click();
      expect(await log.getByLabel("Payload of ping").first().textContent()).toContain('"event":"ping"');
      await checkPage(page, "webhook-delivery-log");

      // The edit form: reference payload and a second event, saved through the API's PATCH rules.
      const edit = page.locator("section[aria-labelledby=edit-endpoint]");
      await edit.getByRole("checkbox", { name: /lead\.submitted/ }).check();
      await edit.getByRole("radio", { name: /Reference/ }).check();
      await edit.getByRole("button", { name: "Save changes" }).click();
      await page.getByText("The webhook endpoint is changed").waitFor();
      expect(await page.locator("section[aria-labelledby=edit-endpoint]").getByRole("radio", { name: /Reference/ }).isChecked()).toBe(true);
      await checkPage(page, "webhook-edited");
      // A refusal beside the field: no events chosen.
      for (const box of await page.locator("section[aria-labelledby=edit-endpoint]").getByRole("checkbox").all()) await box.uncheck();
      await page.locator("section[aria-labelledby=edit-endpoint]").getByRole("button", { name: "Save changes" }).click();
      await page.locator("#events-error").waitFor();
      await checkPage(page, "webhook-edit-refused");

      const ping = await receiver.waitFor((r) => r.headers["x-service-event"] === "ping");
      expect(verifyWithNodeCrypto(secret, ping.raw, ping.headers)).toEqual({ plain: true, timestamped: true });

      await page.getByRole("button", { name: "Rotate the signing secret" }).click();
      await page.getByRole("heading", { name: "New signing secret" }).waitFor();
      expect(await shownSecret(page)).not.toBe(secret);
      await checkPage(page, "webhook-secret-rotated");
    } finally {
      await receiver.close();
    }
  });
});
