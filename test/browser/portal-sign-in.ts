/**
 * A real passkey sign-in for browser tests: the operator invites a person, a
 * CDP virtual authenticator (platform, resident keys, user verification) is
 * added to a new page, the page opens the invitation link and presses
 * "Create passkey"; the answer is that page, signed in, at /portal.
 * The authenticator stays with the page, so the same page can sign in again
 * with "Sign in with a passkey" after signing out.
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";

export interface SignInOptions {
  baseUrl: string;
  adminToken: string;
  organisationId: string;
  role?: "admin" | "member";
  email?: string;
}

/** Adds a virtual platform authenticator to the page (Chromium only); answers the CDP session and its id. */
export async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

/** `POST /admin/v1/organisations/{id}/invitations`: the invitation's link (shown once). */
export async function inviteToPortal(opts: SignInOptions): Promise<{ url: string; email: string }> {
  const email = opts.email ?? `${crypto.randomUUID().slice(0, 8)}@example.test`;
  const res = await fetch(`${opts.baseUrl}/admin/v1/organisations/${opts.organisationId}/invitations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${opts.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ email, role: opts.role ?? "admin" }),
  });
  const body = (await res.json()) as { url?: string };
  if (res.status !== 201 || !body.url) throw new Error(`invitation refused: ${res.status} ${JSON.stringify(body)}`);
  // The link starts at PUBLIC_URL; the browser is sent to the same path on the base URL it tests.
  return { url: `${opts.baseUrl}${new URL(body.url).pathname}`, email };
}

export async function signInWithNewPasskey(context: BrowserContext, opts: SignInOptions): Promise<Page> {
  const { url } = await inviteToPortal(opts);
  const page = await context.newPage();
  await addVirtualAuthenticator(page);
  await page.goto(url);
  // The link's token is traded for a cookie and the page is /portal/invitation, without it (issue 21 item 6).
  if (new URL(page.url()).pathname !== "/portal/invitation") throw new Error(`the invitation link landed on ${page.url()}`);
  await page.getByRole("button", { name: "Create passkey" }).click();
  await page.waitForURL((u) => u.pathname === "/portal", { timeout: 20_000 });
  return page;
}
