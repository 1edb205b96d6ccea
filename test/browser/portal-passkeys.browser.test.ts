import { spawnSync } from "node:child_process";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { WRANGLER, wranglerEnv } from "../../scripts/lib/wrangler-child.mjs";
import { lane, operator } from "../e2e/client";
import { chromiumForFile } from "./browser";
import { checkPortalPage as checkPage } from "./page-checks";
import { addVirtualAuthenticator, inviteToPortal, signInWithNewPasskey } from "./portal-sign-in";

// Issue 23 item 4 in Chromium: a member's second passkey (/portal/passkeys: add while signed in
// through the rebuilt passkeys.js, remove behind the confirm page, the last one refused) and the
// lost-passkey re-invite (Members → "New sign-in link" → a fresh browser enrols a new passkey; the
// old one no longer signs in). Each authenticator is a CDP virtual one; a passkey's id is read
// from the authenticator that holds it, so the test knows which row is which.
/** The file's Chromium (the shared setup of test/browser/browser.ts). */
const browser = chromiumForFile();

interface HeldCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/** The passkeys a virtual authenticator holds (CDP gives ids in base64; the portal uses base64url). */
async function credentialsOf(cdp: CDPSession, authenticatorId: string): Promise<HeldCredential[]> {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  return credentials as HeldCredential[];
}
const base64url = (base64: string) => base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** A page with its own authenticator opens an invitation link and makes a passkey; answers the page, its CDP session and authenticator. */
async function joinWith(context: BrowserContext, url: string): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const page = await context.newPage();
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  await page.goto(url);
  expect(new URL(page.url()).pathname).toBe("/portal/invitation");
  expect(page.url()).not.toContain(new URL(url).pathname.split("/").pop()!);
  await page.getByRole("button", { name: "Create passkey" }).click();
  await page.waitForURL((u) => u.pathname === "/portal", { timeout: 20_000 });
  return { page, cdp, authenticatorId };
}

/** Makes the member's sessions' last passkey proof an hour old in the running service's D1 (as a copied cookie's would be). */
function ageStepUp(email: string) {
  const sql = `update portal_sessions set passkey_verified_at = passkey_verified_at - 3600 where member_id in (select id from portal_members where email = '${email}')`;
  const run = spawnSync(WRANGLER, ["d1", "execute", "rfs", "--local", "--persist-to", lane().persistTo, "--command", sql], { encoding: "utf8", env: wranglerEnv({ logsIn: lane().persistTo }) });
  if (run.status !== 0) throw new Error(`ageing the session failed: ${run.stdout}\n${run.stderr}`);
}

/** Signs out and answers when the sign-in page is shown. */
async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((u) => u.pathname === "/portal/sign-in");
}

/**
 * On the sign-in page, with a new authenticator that holds only `credential` (a copy of a passkey an
 * earlier authenticator made), "Sign in with a passkey" must stay on the sign-in page with the refusal.
 */
async function expectRefusedSignIn(page: Page, cdp: CDPSession, credential: HeldCredential) {
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await cdp.send("WebAuthn.addCredential", { authenticatorId, credential });
  const answer = page.waitForResponse((r) => r.url().endsWith("/portal/sign-in/verify"));
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  expect((await answer).status()).toBe(400);
  await expect.poll(() => page.locator("[data-passkey-status]").textContent()).toContain("could not be verified");
  expect(new URL(page.url()).pathname).toBe("/portal/sign-in");
  await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
}

describe("a member's passkeys in a browser", () => {
  it("adds a second passkey, removes the first after confirming, signs in with the second; the last one cannot be removed", { timeout: 240_000 }, async () => {
    const baseUrl = lane().baseUrl;
    const org = (await operator("POST", "/organisations", { name: `Passkeys Partner ${Date.now()}`, kind: "partner" })).body;
    const context = await browser().newContext();
    const invitation = await inviteToPortal({ baseUrl, adminToken: inject("adminToken"), organisationId: org.id, role: "member" });
    const { page, cdp, authenticatorId: first } = await joinWith(context, invitation.url);

    // Passkeys, from the address in the header: one passkey, which cannot be removed.
    await page.getByRole("link", { name: `${invitation.email}: your passkeys` }).click();
    await page.waitForURL((u) => u.pathname === "/portal/passkeys");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("Your passkeys");
    expect(await page.locator("table tbody tr").count()).toBe(1);
    expect(await page.textContent("main")).toContain("Your only passkey");
    await checkPage(page, "passkeys-one");

    // The ceremony runs in the portal's own script, served by the Worker (no inline or outside script).
    expect(await page.locator('script[src="/portal/assets/passkeys.js"]').count()).toBe(1);

    // Issue 39 item 9: once the session's last passkey proof is older than 5 minutes, adding a passkey
    // asks for one first: "Confirm with your passkey" runs a step-up through the same script.
    ageStepUp(invitation.email);
    await page.reload();
    expect(await page.getByRole("button", { name: "Add a passkey" }).count()).toBe(0);
    expect(await page.textContent("main")).toContain("confirm it is you with one of your passkeys first");
    await checkPage(page, "passkeys-step-up");
    const steppedUp = page.waitForResponse((r) => r.url().includes("/portal/step-up/verify"));
    await page.getByRole("button", { name: "Confirm with your passkey" }).click();
    expect((await steppedUp).status()).toBe(200);
    await page.waitForLoadState();
    await expect.poll(() => page.getByRole("button", { name: "Add a passkey" }).count(), { timeout: 20_000 }).toBe(1);

    // The first authenticator is put away (as if on another device) so the second one answers the ceremony.
    const [firstPasskey] = await credentialsOf(cdp, first);
    expect(firstPasskey).toBeDefined();
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: first });
    const { authenticatorId: second } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.waitForURL((u) => u.pathname === "/portal/passkeys" && u.searchParams.get("notice") === "added", { timeout: 20_000 });
    const [secondPasskey] = await credentialsOf(cdp, second);
    expect(secondPasskey).toBeDefined();
    const firstId = base64url(firstPasskey.credentialId);
    const secondId = base64url(secondPasskey.credentialId);
    expect(secondId).not.toBe(firstId);
    expect(await page.getByRole("status").first().textContent()).toContain("Passkey added");
    expect(await page.locator("table tbody tr").count()).toBe(2);
    const removeLinks = page.getByRole("link", { name: "Remove" });
    expect(await removeLinks.count()).toBe(2);
    await checkPage(page, "passkeys-two");

    // A second tab opens the confirm page for the second passkey while both exist (used below).
    const staleTab = await context.newPage();
    await staleTab.goto(`${baseUrl}/portal/passkeys/${secondId}/remove`);
    expect(await staleTab.getByRole("heading", { level: 2 }).first().textContent()).toContain(`…${secondId.slice(-6)}`);

    // Remove the first: the link opens the confirm page, which names it; confirming removes it.
    await page.locator(`a[href="/portal/passkeys/${firstId}/remove"]`).click();
    await page.waitForURL((u) => u.pathname === `/portal/passkeys/${firstId}/remove`);
    expect(await page.locator("#confirm-question").textContent()).toBe(`Remove This device's passkey …${firstId.slice(-6)}?`);
    expect(await page.textContent("main")).toContain("This cannot be undone.");
    await checkPage(page, "passkey-remove-confirm");
    await page.getByRole("button", { name: "Remove the passkey" }).click();
    await page.waitForURL((u) => u.pathname === "/portal/passkeys" && u.searchParams.get("notice") === "removed");
    expect(await page.locator("table tbody tr").count()).toBe(1);
    expect(await page.textContent("table")).toContain(`…${secondId.slice(-6)}`);
    expect(await page.textContent("main")).toContain("Your only passkey");

    // The stale confirm page now asks to remove the last passkey: refused, with the reason, nothing removed.
    // Refused, the post is answered 303 to the passkeys page, which shows the refusal with its status (post/redirect/get).
    const refusal = staleTab.waitForResponse((r) => r.url().startsWith(`${baseUrl}/portal/passkeys?refused=`) && r.request().method() === "GET");
    await staleTab.getByRole("button", { name: "Remove the passkey" }).click();
    expect((await refusal).status()).toBe(409);
    await staleTab.waitForLoadState();
    expect(await staleTab.getByRole("heading", { level: 1 }).textContent()).toContain("Your passkeys");
    expect(await staleTab.textContent("main")).toContain("This is your only passkey: add another before you remove this one");
    expect(await staleTab.locator("table tbody tr").count()).toBe(1);
    await checkPage(staleTab, "passkeys-last-refused");
    await staleTab.close();

    // Sign out and in again: the second authenticator's passkey signs in.
    await signOut(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL((u) => u.pathname === "/portal", { timeout: 20_000 });
    expect(await page.textContent("header")).toContain(org.name);

    // The removed passkey, alone on an authenticator, opens nothing.
    await signOut(page);
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: second });
    await expectRefusedSignIn(page, cdp, firstPasskey);
    await context.close();
  });

  it("an admin sends a lost-passkey member a new sign-in link; the new passkey replaces the old ones and ends their sessions", { timeout: 240_000 }, async () => {
    const baseUrl = lane().baseUrl;
    const adminToken = inject("adminToken");
    const org = (await operator("POST", "/organisations", { name: `Reinvite Partner ${Date.now()}`, kind: "partner" })).body;

    // The member joins on their old device and stays signed in there.
    const oldDevice = await browser().newContext();
    const invitation = await inviteToPortal({ baseUrl, adminToken, organisationId: org.id, role: "member" });
    const old = await joinWith(oldDevice, invitation.url);
    const [oldPasskey] = await credentialsOf(old.cdp, old.authenticatorId);
    expect(oldPasskey).toBeDefined();

    // An admin of the organisation sends them a new sign-in link from Members.
    const adminContext = await browser().newContext();
    const admin = await signInWithNewPasskey(adminContext, { baseUrl, adminToken, organisationId: org.id, role: "admin" });
    await admin.goto(`${baseUrl}/portal/members`);
    await admin.getByRole("button", { name: `Send ${invitation.email} a new sign-in link (lost passkey)` }).click();
    await admin.waitForLoadState();
    expect(await admin.locator("#invited-heading").textContent()).toContain(`New sign-in link for ${invitation.email}`);
    expect(await admin.textContent("main")).toContain("their old passkeys stop working");
    const link = (await admin.locator("[data-invitation-link]").textContent())!.trim();
    expect(link).toMatch(/\/portal\/invitations\/[A-Za-z0-9]{43}$/);
    await checkPage(admin, "members-new-sign-in-link");

    // A fresh browser with a new authenticator opens the link: the token leaves the URL at once.
    const newDevice = await browser().newContext();
    const page = await newDevice.newPage();
    await addVirtualAuthenticator(page);
    const url = `${baseUrl}${new URL(link).pathname}`;
    await page.goto(url);
    expect(new URL(page.url()).pathname).toBe("/portal/invitation");
    expect(page.url()).not.toContain(new URL(url).pathname.split("/").pop()!);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(org.name);
    expect(await page.textContent("main")).toContain("replaces your passkeys");
    await checkPage(page, "invitation-new-sign-in-link");
    await page.getByRole("button", { name: "Create passkey" }).click();
    await page.waitForURL((u) => u.pathname === "/portal", { timeout: 20_000 });
    expect(await page.textContent("header")).toContain(invitation.email);
    await page.goto(`${baseUrl}/portal/passkeys`);
    expect(await page.locator("table tbody tr").count()).toBe(1);
    expect(await page.textContent("table")).not.toContain(`…${base64url(oldPasskey.credentialId).slice(-6)}`);

    // The old device: its session has ended, and its passkey no longer signs in; the sign-in page says
    // the passkeys were replaced, when and by whose link (issue 39 item 1).
    await old.page.goto(`${baseUrl}/portal`);
    expect(new URL(old.page.url()).pathname).toBe("/portal/sign-in");
    const refused = old.page.waitForResponse((r) => r.url().endsWith("/portal/sign-in/verify"));
    await old.page.getByRole("button", { name: "Sign in with a passkey" }).click();
    expect((await refused).status()).toBe(409);
    await expect.poll(() => old.page.locator("[data-passkey-status]").textContent()).toContain("your passkeys were replaced on");
    expect(await old.page.locator("[data-passkey-status]").textContent()).toContain("If that was not you");
    await checkPage(old.page, "sign-in-passkeys-replaced");
    expect(new URL(old.page.url()).pathname).toBe("/portal/sign-in");
    await oldDevice.close();

    // The new passkey signs in after signing out.
    await signOut(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL((u) => u.pathname === "/portal", { timeout: 20_000 });

    // Removing the member is confirmed on its own page; confirming signs them out at once.
    await admin.goto(`${baseUrl}/portal/members`);
    await admin.locator(`a.button[href$="/remove"]`).click();
    await admin.waitForURL((u) => /^\/portal\/members\/[^/]+\/remove$/.test(u.pathname));
    expect(await admin.locator("#confirm-question").textContent()).toBe(`Remove ${invitation.email}?`);
    await checkPage(admin, "member-remove-confirm");
    await admin.getByRole("button", { name: "Remove the member" }).click();
    await admin.waitForURL((u) => u.pathname === "/portal/members");
    expect(await admin.textContent("main")).not.toContain(invitation.email);
    await page.goto(`${baseUrl}/portal`);
    expect(new URL(page.url()).pathname).toBe("/portal/sign-in");
    await adminContext.close();
    await newDevice.close();
  });
});
