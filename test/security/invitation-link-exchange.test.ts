/**
 * Issue 21 item 6 (remainder), "same exchange for portal invitation links": the invitation link's token is
 * traded on first visit for an HttpOnly, SameSite=Strict, short-lived cookie (Secure on https) and a 303 to
 * the acceptance page's URL without the token, so the token stays out of history, `Referer` and request
 * logs. The passkey ceremony that follows reads the token from that cookie.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PRODUCTION } from "../helpers/api";
import { invite, portalJson, sessionCookieOf } from "../helpers/portal-ceremony";
import { createOrganisation } from "../helpers/seed";
import { softwarePasskey } from "../helpers/software-authenticator";

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await exports.default.fetch(new Request(url.startsWith("http") ? url : `${PRODUCTION}${url}`, { headers, redirect: "manual" }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Opens the link as a browser would (typed, bookmarked or from our own page) and answers the 303 and the cookie pair. */
async function exchange(token: string) {
  const res = await get(`/portal/invitations/${token}`);
  const cookie = /^(rfs_portal_invitation=[^;]+)/.exec(res.headers.get("Set-Cookie") ?? "")?.[1] ?? null;
  return { res, cookie };
}

describe("issue 21 item 6: invitation links are traded for a cookie", () => {
  it("item 6: answers the link with a short-lived HttpOnly SameSite=Strict cookie and a 303 to the acceptance page without the token", async () => {
    const org = await createOrganisation("partner", "Exchange Partners");
    const { token, email } = await invite(org.id, "member");
    const { res, cookie } = await exchange(token);
    expect(res.status).toBe(303);
    const location = res.headers.get("Location")!;
    expect(location).toBe("/portal/invitation");
    expect(location).not.toContain(token);
    const setCookie = res.headers.get("Set-Cookie")!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/portal\/invitation(;|$)/);
    const maxAge = Number(/Max-Age=(\d+)/i.exec(setCookie)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(30 * 60);
    // On http (local) no Secure flag, so the cookie works at http://localhost; on https it is Secure.
    expect(setCookie).not.toMatch(/Secure/i);
    const secure = await get(`https://api.test/portal/invitations/${token}`);
    expect(secure.status).toBe(303);
    expect(secure.headers.get("Set-Cookie")).toMatch(/Secure/i);

    const page = await get(location, { Cookie: cookie! });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Exchange Partners");
    expect(page.text).toContain(email);
    expect(page.text).toContain("Create passkey");
    // The token is nowhere on the page (the ceremony's URLs carry none).
    expect(page.text).not.toContain(token);
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
  });

  it("item 6: without the cookie, or with an unknown link, the acceptance page is the plain 'no longer works' page and sets nothing", async () => {
    expect((await get("/portal/invitation")).status).toBe(404);
    expect((await get("/portal/invitation", { Cookie: "rfs_portal_invitation=not-a-token" })).status).toBe(404);
    const unknown = await get(`/portal/invitations/${"x".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("Set-Cookie")).toBeNull();
  });

  it("item 6: a link followed from another site moves on by itself (a Strict cookie is withheld on a cross-site redirect chain)", async () => {
    const org = await createOrganisation("lender");
    const { token } = await invite(org.id);
    const cross = await get(`/portal/invitations/${token}`, { "Sec-Fetch-Site": "cross-site" });
    expect(cross.status).toBe(200);
    expect(cross.headers.get("Set-Cookie")).toMatch(/rfs_portal_invitation=/);
    expect(cross.text).toContain('http-equiv="refresh"');
    expect(cross.text).toContain("/portal/invitation");
    expect(cross.text).not.toContain(token);
  });

  it("item 6: the passkey ceremony runs on the cookie alone, opens a session and ends the invitation cookie", async () => {
    const org = await createOrganisation("partner");
    const { token, email, id } = await invite(org.id, "admin", undefined, { display_name: "Ada Lovelace" });
    const { cookie } = await exchange(token);
    const options = await portalJson("/invitation/options", {}, { Cookie: cookie! });
    expect(options.status).toBe(200);
    const passkey = await softwarePasskey();
    const verified = await portalJson(
      "/invitation/verify",
      { challenge_id: options.body.challenge_id, response: await passkey.register(options.body.options, PRODUCTION) },
      { Cookie: cookie! },
    );
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ redirect: "/portal" });
    expect(sessionCookieOf(verified.headers)).not.toBeNull();
    expect(verified.headers.get("Set-Cookie")).toMatch(/rfs_portal_invitation=;/);
    const member = await env.DB.prepare("select role, display_name from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<any>();
    // The name the invitation was issued with is the member's (issue 45 item 9).
    expect(member).toEqual({ role: "admin", display_name: "Ada Lovelace" });
    const used = await env.DB.prepare("select accepted_at from portal_invitations where id = ?").bind(id).first<any>();
    expect(used.accepted_at).not.toBeNull();
    // Without the cookie the ceremony is the same 404 as an unknown link.
    const bare = await portalJson("/invitation/options", {});
    expect(bare.status).toBe(404);
  });
});
