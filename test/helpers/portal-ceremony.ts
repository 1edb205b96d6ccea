/**
 * Passkey ceremonies against the portal's JSON endpoints inside workerd, with
 * a software passkey (test/helpers/software-authenticator.ts) standing in for
 * the browser: the same requests passkeys.js makes.
 */
import { exports } from "cloudflare:workers";
import { admin, newClientAddress, ownAddress, PRODUCTION, throughEdge } from "./api";
import { SESSION_COOKIE } from "../../src/web/portal/session-cookie";
import { softwarePasskey, type SoftwarePasskey } from "./software-authenticator";

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** A JSON post the way passkeys.js sends it from a portal page. */
export async function portalJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const res = await exports.default.fetch(
    new Request(`${PRODUCTION}/portal${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", Origin: PRODUCTION, ...headers },
      body: JSON.stringify(body),
      ...throughEdge(headers),
    }),
  );
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* an HTML page */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** The operator's invitation: its link's token. */
export async function invite(organisationId: string, role: "admin" | "member" = "admin", email = `${crypto.randomUUID().slice(0, 8)}@example.test`, extra: { display_name?: string } = {}) {
  const res = await admin("POST", `/organisations/${organisationId}/invitations`, { email, role, ...extra });
  if (res.status !== 201) throw new Error(`invitation refused: ${res.status} ${res.text}`);
  return { token: new URL(res.body.url).pathname.split("/").pop()!, email, id: res.body.id as string };
}

/**
 * Opens an invitation link as a browser does: the link trades its token for the invitation cookie
 * (303 to /portal/invitation), and the acceptance page is read with that cookie. A link that does not
 * open answers its own page (404) and no cookie.
 */
export async function openInvitationLink(token: string) {
  const link = await exports.default.fetch(new Request(`${PRODUCTION}/portal/invitations/${token}`, { headers: { "Sec-Fetch-Site": "none" }, redirect: "manual" }));
  const cookie = /^(rfs_portal_invitation=[^;]+)/.exec(link.headers.get("Set-Cookie") ?? "")?.[1];
  if (link.status !== 303 || !cookie) return { status: link.status, headers: link.headers, text: await link.text(), cookie: null };
  await link.body?.cancel();
  const page = await exports.default.fetch(new Request(`${PRODUCTION}${link.headers.get("Location")}`, { headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" } }));
  return { status: page.status, headers: page.headers, text: await page.text(), cookie };
}

export const sessionCookieOf = (headers: Headers) => {
  const match = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(headers.get("Set-Cookie") ?? "");
  return match ? `${SESSION_COOKIE}=${match[1]}` : null;
};

/** Accepts the invitation with a new software passkey; answers the passkey and the session cookie. */
export async function registerThroughInvitation(token: string, passkey?: SoftwarePasskey) {
  const key = passkey ?? (await softwarePasskey());
  const options = await portalJson(`/invitations/${token}/options`, {});
  if (options.status !== 200) throw new Error(`options refused: ${options.status}`);
  const verified = await portalJson(`/invitations/${token}/verify`, { challenge_id: options.body.challenge_id, response: await key.register(options.body.options, PRODUCTION) });
  return { passkey: key, verified, cookie: sessionCookieOf(verified.headers) };
}

/** A sign-in with the passkey from one client address (by default one of its own: the per-address limits are shared by every file). */
export async function signInWith(passkey: SoftwarePasskey, address = newClientAddress(), overrides: { counter?: number; userVerified?: boolean } = {}) {
  const options = await portalJson("/sign-in/options", {}, { "CF-Connecting-IP": address });
  const response = await passkey.authenticate(options.body.options, PRODUCTION, overrides);
  const verified = await portalJson("/sign-in/verify", { challenge_id: options.body.challenge_id, response }, { "CF-Connecting-IP": address });
  return { verified, cookie: sessionCookieOf(verified.headers), challengeId: options.body.challenge_id as string, response };
}
