import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { lane, operator } from "../e2e/client";
import { chromiumForFile } from "./browser";
import { checkPortalPage } from "./page-checks";
import { SIGN_IN_ATTEMPTS_PER_ADDRESS } from "../../src/domain/portal/sign-in-limits";
import { inviteToPortal, signInWithNewPasskey } from "./portal-sign-in";

// The access side of the portal in Chromium with a CDP virtual authenticator: invitation →
// passkey → signed in → sign out → sign in again; a copied session cookie dies with sign-out; a
// form posted from another site is refused. Each page is checked at desktop and phone widths.
// One Chromium for the file, started before its tests and closed after them (browser.ts).
const browser = chromiumForFile();

const checkPage = checkPortalPage;

/** Another site's page that posts a form to the portal's sign-out as soon as it loads. */
async function startForgerySite(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<!doctype html><html><head><title>prize</title></head><body><form id="f" method="post" action="${target}"><input type="hidden" name="_form_token" value="guess"></form><script>document.getElementById("f").submit()</script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("portal access in a browser", () => {
  it("invitation → passkey → signed in → sign out → sign in again; a copied cookie dies on sign-out; cross-site posts are refused", { timeout: 180_000 }, async () => {
    const baseUrl = lane().baseUrl;
    const adminToken = inject("adminToken");
    const org = (await operator("POST", "/organisations", { name: `Browser Partner ${Date.now()}`, kind: "partner" })).body;

    // The invitation page as the invitee first sees it.
    const look = await browser().newContext();
    const invitation = await inviteToPortal({ baseUrl, adminToken, organisationId: org.id, role: "member" });
    const invitationView = await look.newPage();
    await invitationView.goto(invitation.url);
    // Issue 21 item 6: the token was traded for a cookie; the address bar (and history) no longer holds it.
    expect(new URL(invitationView.url()).pathname).toBe("/portal/invitation");
    expect(invitationView.url()).not.toContain(new URL(invitation.url).pathname.split("/").pop()!);
    const invitationCookie = (await look.cookies()).find((c) => c.name === "rfs_portal_invitation");
    expect(invitationCookie?.httpOnly).toBe(true);
    expect(invitationCookie?.sameSite).toBe("Strict");
    await expect(invitationView.getByRole("heading", { level: 1 }).textContent()).resolves.toContain(org.name);
    expect(await invitationView.textContent("main")).toContain("as a member");
    await checkPage(invitationView, "invitation");
    await look.close();

    const context = await browser().newContext();
    const page = await signInWithNewPasskey(context, { baseUrl, adminToken, organisationId: org.id, role: "admin" });
    expect(await page.textContent("header")).toContain(org.name);

    // Members: list, invite from the portal (link shown once), then the audit log with both actions.
    await page.goto(`${baseUrl}/portal/members`);
    await page.getByLabel("Email").fill("colleague@example.test");
    await page.getByRole("button", { name: "Create invitation link" }).click();
    expect(await page.locator("[data-invitation-link]").textContent()).toMatch(/\/portal\/invitations\/[A-Za-z0-9]{43}/);
    await checkPage(page, "members");
    await page.goto(`${baseUrl}/portal/audit`);
    const log = await page.textContent("main");
    expect(log).toContain("Invited a member");
    expect(log).toContain("Joined the organisation");
    await checkPage(page, "audit");

    // A stolen copy of the session cookie works while the session lives.
    const thief = await browser().newContext();
    await thief.addCookies(await context.cookies());
    const thiefPage = await thief.newPage();
    await thiefPage.goto(`${baseUrl}/portal`);
    expect(new URL(thiefPage.url()).pathname).toBe("/portal");

    // Another site's form aimed at sign-out is refused, and the session survives it.
    const forgery = await startForgerySite(`${baseUrl}/portal/sign-out`);
    try {
      const victimTab = await context.newPage();
      const refused = victimTab.waitForResponse((r) => r.url() === `${baseUrl}/portal/sign-out`);
      await victimTab.goto(forgery.url);
      expect((await refused).status()).toBe(403);
      await victimTab.close();
    } finally {
      await forgery.close();
    }
    await page.goto(`${baseUrl}/portal`);
    expect(new URL(page.url()).pathname).toBe("/portal");

    // Sign out: the session ends server-side, so the copied cookie is dead too.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((u) => u.pathname === "/portal/sign-in");
    await thiefPage.goto(`${baseUrl}/portal`);
    expect(new URL(thiefPage.url()).pathname).toBe("/portal/sign-in");
    await thief.close();

    // Sign in again with the passkey the page's authenticator holds (no email asked).
    await checkPage(page, "sign-in");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL((u) => u.pathname === "/portal", { timeout: 20_000 });
    expect(await page.textContent("header")).toContain(org.name);
    await context.close();
  });

  it("shows the 429 refusal on the sign-in page once an address has spent its attempts", { timeout: 90_000 }, async () => {
    const baseUrl = lane().baseUrl;
    const address = `203.0.113.${Math.floor(Math.random() * 250)}`;
    const org = (await operator("POST", "/organisations", { name: `Limited Partner ${Date.now()}`, kind: "partner" })).body;
    const context = await browser().newContext({ extraHTTPHeaders: { "CF-Connecting-IP": address } });
    const page = await signInWithNewPasskey(context, { baseUrl, adminToken: inject("adminToken"), organisationId: org.id });
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((u) => u.pathname === "/portal/sign-in");
    // Spend the address's attempts with answers that name no passkey (each is counted, then refused).
    const bogus = { challenge_id: "chl_none", response: { id: "AAAA", rawId: "AAAA", type: "public-key", response: {} } };
    // Under `wrangler dev` offline, requests may carry no `request.cf`, and then every address counts in one shared
    // bucket (src/lib/client-address.ts), which other tests' attempts also fill: spend until the limit answers.
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_ADDRESS; i++) {
      const res = await fetch(`${baseUrl}/portal/sign-in/verify`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", "CF-Connecting-IP": address },
        body: JSON.stringify(bogus),
      });
      expect([400, 429]).toContain(res.status);
      if (res.status === 429) break;
    }
    const limited = page.waitForResponse((r) => r.url().endsWith("/portal/sign-in/verify"));
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    const answer = await limited;
    expect(answer.status()).toBe(429);
    expect(Number(answer.headers()["retry-after"])).toBeGreaterThan(0);
    // The script writes the refusal after the answer arrives: wait for the text, not the response.
    await expect.poll(() => page.locator("[data-passkey-status]").textContent()).toContain("Too many sign-in attempts");
    expect(new URL(page.url()).pathname).toBe("/portal/sign-in");
    await context.close();
  });

  it("serves the script built from the current sources and @simplewebauthn/browser", () => {
    const check = spawnSync(process.execPath, ["scripts/build-portal-script.mjs", "--check"], { encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("says so plainly when the browser has no WebAuthn", async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      // A browser without WebAuthn.
      delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
    });
    await page.goto(`${lane().baseUrl}/portal/sign-in`);
    await expect(page.getByRole("button", { name: "Sign in with a passkey" }).isDisabled()).resolves.toBe(true);
    await expect.poll(() => page.getByRole("status").textContent()).toContain("cannot use passkeys");
    await context.close();
  });
});
