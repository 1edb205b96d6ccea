import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createOrganisation } from "../helpers/seed";
import { portal, signedInMember } from "../helpers/portal";
import { auditEntries } from "../helpers/data-db";

describe("portal sessions and forms", () => {
  it("sends a visitor without a session to sign-in", async () => {
    const res = await portal("GET", "/");
    expect(res.status).toBe(303);
    expect(res.location).toBe("/portal/sign-in");
  });

  it("shows a signed-in member their organisation in the sandbox, with the hub's strict headers", async () => {
    const org = await createOrganisation("partner", "Acme Introducers");
    const session = await signedInMember(org.id);
    const res = await portal("GET", "/", { session });
    expect(res.status).toBe(200);
    expect(res.text).toContain("Acme Introducers");
    expect(res.text).toContain("sandbox environment");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
  });

  it("refuses a cross-site post by its headers and a post without the session's form token", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const crossSite = await portal("POST", "/environment", { session, form: { environment: "live" }, headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
    const noToken = await portal("POST", "/environment", { session, form: { environment: "live" }, formToken: null });
    expect(noToken.status).toBe(403);
    const otherToken = await portal("POST", "/environment", { session, form: { environment: "live" }, formToken: (await signedInMember(org.id)).formToken });
    expect(otherToken.status).toBe(403);
    expect((await portal("GET", "/", { session })).text).toContain("sandbox environment");
  });

  it("switches between sandbox and live and writes the switch to the audit log", async () => {
    const org = await createOrganisation("lender");
    const session = await signedInMember(org.id);
    const res = await portal("POST", "/environment", { session, form: { environment: "live" } });
    expect(res.status).toBe(303);
    expect((await portal("GET", "/", { session })).text).toContain("live environment");
    expect((await portal("POST", "/environment", { session, form: { environment: "staging" } })).status).toBe(400);
    const audit = { results: await auditEntries<any>("action, target, environment, member_id", "organisation_id = ?", org.id) };
    expect(audit.results).toEqual([{ action: "environment.switched", target: "live", environment: "live", member_id: session.memberId }]);
  });

  it("ends the session on sign-out: the same cookie is refused afterwards", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const out = await portal("POST", "/sign-out", { session, form: {} });
    expect(out.status).toBe(303);
    expect(out.headers.get("Set-Cookie")).toMatch(/rfs_portal_session=;.*Max-Age=0/i);
    const after = await portal("GET", "/", { session });
    expect(after.status).toBe(303);
    expect(after.location).toBe("/portal/sign-in");
  });

  it("ends a session after twelve idle hours and when the member is removed", async () => {
    const org = await createOrganisation("partner");
    const idle = await signedInMember(org.id);
    await env.DB.prepare("update portal_sessions set last_seen_at = last_seen_at - 12 * 3600 - 1 where member_id = ?").bind(idle.memberId).run();
    expect((await portal("GET", "/", { session: idle })).status).toBe(303);
    const removed = await signedInMember(org.id);
    await env.DB.prepare("update portal_members set removed_at = ? where id = ?").bind(new Date().toISOString(), removed.memberId).run();
    expect((await portal("GET", "/", { session: removed })).status).toBe(303);
  });

  it("answers an unknown page with 404", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    expect((await portal("GET", "/no-such-page", { session })).status).toBe(404);
  });
});
