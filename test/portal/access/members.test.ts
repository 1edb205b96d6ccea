import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation } from "../../helpers/seed";
import { openInvitationLink } from "../../helpers/portal-ceremony";
import { recordPortalAction } from "../../../src/services/portal/audit";
import { testDeps } from "../../helpers/deps";
import { removeMemberOf } from "../../../src/services/portal/members";
import { viewerOfSession } from "../../../src/services/portal/sessions";

const auditActions = async (organisationId: string) =>
  (await env.DB.prepare("select action, target, member_id from portal_audit_log where organisation_id = ? order by at, rowid").bind(organisationId).all<any>()).results;

describe("members page", () => {
  it("lists the organisation's members with role and date, and only theirs", async () => {
    const org = await createOrganisation("partner", "Roster Partners");
    const adminSession = await signedInMember(org.id, "admin", "boss@example.test");
    await signedInMember(org.id, "member", "clerk@example.test");
    const elsewhere = await createOrganisation("partner");
    await signedInMember(elsewhere.id, "admin", "stranger@example.test");
    const res = await portal("GET", "/members", { session: adminSession });
    expect(res.status).toBe(200);
    expect(res.text).toContain("boss@example.test");
    expect(res.text).toContain("clerk@example.test");
    // The date in the kit's one form (issue 23 item 10), UTC named: `26 Nov 2026, 03:57 UTC`.
    expect(res.text).toMatch(/<td data-label="Member since">\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC<\/td>/);
    expect(res.text).not.toContain("stranger@example.test");
  });

  it("invites a member from the portal: the link is shown once, the invitation is audited", async () => {
    const org = await createOrganisation("lender");
    const session = await signedInMember(org.id, "admin");
    const res = await portal("POST", "/members/invitations", { session, form: { email: "New.Person@example.test", role: "member" } });
    expect(res.status).toBe(201);
    const link = /\/portal\/invitations\/([A-Za-z0-9]{43})/.exec(res.text);
    expect(link).not.toBeNull();
    const row = await env.DB.prepare("select id, email, role, invited_by from portal_invitations where organisation_id = ?").bind(org.id).first<any>();
    expect(row).toMatchObject({ email: "new.person@example.test", role: "member", invited_by: session.memberId });
    expect((await openInvitationLink(link![1])).status).toBe(200);
    expect((await portal("GET", "/members", { session })).text).not.toContain(link![1]);
    expect(await auditActions(org.id)).toEqual([{ action: "member.invited", target: row.id, member_id: session.memberId }]);
  });

  it("shows a refused invitation beside its field: a bad email 400, a bad role 400, a current member 409", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const bad = await portal("POST", "/members/invitations", { session, form: { email: "nope", role: "member" } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="email-error"');
    expect(bad.text).toContain('aria-describedby="email-error"');
    expect(bad.text).toContain('value="nope"');
    const role = await portal("POST", "/members/invitations", { session, form: { email: "a@example.test", role: "owner" } });
    expect(role.status).toBe(400);
    expect(role.text).toContain('id="role-error"');
    const taken = await portal("POST", "/members/invitations", { session, form: { email: session.email, role: "member" } });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('id="email-error"');
    expect(await auditActions(org.id)).toEqual([]);
  });

  it("names the invitee (issue 45 item 9): the invitation keeps the name; a name with a text-direction character is refused beside it", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const bidi = await portal("POST", "/members/invitations", { session, form: { email: "x@example.test", role: "member", display_name: "Ada\u202eLovelace" } });
    expect(bidi.status).toBe(400);
    expect(bidi.text).toMatch(/id="display_name-error"[^>]*>[^<]*plain text/);
    expect(bidi.text).toContain('value="x@example.test"');
    const res = await portal("POST", "/members/invitations", { session, form: { email: "y@example.test", role: "member", display_name: "Grace Hopper" } });
    expect(res.status).toBe(201);
    expect(await env.DB.prepare("select display_name from portal_invitations where organisation_id = ? and email = ?").bind(org.id, "y@example.test").first("display_name")).toBe("Grace Hopper");
  });

  it("Your settings (issue 45 items 9 and 10): a member sets their name and time zone, every portal time is then in that zone, named; bad values are refused beside their fields", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const page = await portal("GET", "/settings", { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<option value="UTC" selected="">UTC</option>');
    expect(page.text).toContain('href="/portal/settings" aria-current="page"');
    const refused = await portal("POST", "/settings", { session, form: { display_name: "Ada\u202eLovelace", time_zone: "Mars/Olympus_Mons" } });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="display_name-error"[^>]*>[^<]*plain text/);
    expect(refused.text).toMatch(/id="time_zone-error"[^>]*>Choose a time zone from the list.</);
    expect(await env.DB.prepare("select display_name, time_zone from portal_members where id = ?").bind(session.memberId).first()).toEqual({ display_name: null, time_zone: null });
    const saved = await portal("POST", "/settings", { session, form: { display_name: "  Ada Lovelace ", time_zone: "Europe/Paris" } });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe("/portal/settings");
    expect(await env.DB.prepare("select display_name, time_zone from portal_members where id = ?").bind(session.memberId).first()).toEqual({ display_name: "Ada Lovelace", time_zone: "Europe/Paris" });
    expect((await auditActions(org.id)).map((a) => a.action)).toEqual(["member.settings_changed"]);
    // The members list's times are now Paris times, named by the zone's short name.
    const members = await portal("GET", "/members", { session });
    expect(members.text).toMatch(/<td data-label="Member since">\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} CES?T<\/td>/);
    // An emptied name clears it; the zone stays one of the list.
    expect((await portal("POST", "/settings", { session, form: { display_name: "", time_zone: "UTC" } })).status).toBe(303);
    expect(await env.DB.prepare("select display_name, time_zone from portal_members where id = ?").bind(session.memberId).first()).toEqual({ display_name: null, time_zone: "UTC" });
  });

  it("removes a member: their sessions end at once, the removal is audited; another organisation's member and oneself are refused", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const leaver = await signedInMember(org.id, "member");
    expect((await portal("GET", "/", { session: leaver })).status).toBe(200);
    // The list's Remove leads to the question; its form carries the confirmation.
    expect((await portal("GET", "/members", { session })).text).toContain(`href="/portal/members/${leaver.memberId}/remove"`);
    const question = await portal("GET", `/members/${leaver.memberId}/remove`, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain('<input type="hidden" name="confirmed" value="yes"/>');
    const res = await portal("POST", `/members/${leaver.memberId}/remove`, { session, form: { confirmed: "yes" } });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/portal/members");
    const gone = await portal("GET", "/", { session: leaver });
    expect(gone.status).toBe(303);
    expect(gone.location).toBe("/portal/sign-in");
    const sessions = await env.DB.prepare("select token_hash from portal_sessions where member_id = ?").bind(leaver.memberId).all<any>();
    expect(sessions.results).toEqual([]);
    expect(await auditActions(org.id)).toEqual([{ action: "member.removed", target: leaver.memberId, member_id: session.memberId }]);
    expect((await portal("GET", "/members", { session })).text).not.toContain(leaver.email);

    const other = await createOrganisation("partner");
    const outsider = await signedInMember(other.id, "member");
    expect((await portal("POST", `/members/${outsider.memberId}/remove`, { session, form: { confirmed: "yes" } })).status).toBe(404);
    expect((await portal("GET", "/", { session: outsider })).status).toBe(200);
    expect((await portal("POST", `/members/${leaver.memberId}/remove`, { session, form: { confirmed: "yes" } })).status).toBe(404);
    expect((await portal("POST", `/members/${session.memberId}/remove`, { session, form: { confirmed: "yes" } })).status).toBe(409);
    // Oneself: no question that could only be refused, the same refusal.
    expect((await portal("GET", `/members/${session.memberId}/remove`, { session })).status).toBe(409);
    expect((await portal("POST", `/members/${outsider.memberId}/remove`, { session, form: { confirmed: "yes" }, formToken: null })).status).toBe(403);
  });
});

describe("admin pages and roles", () => {
  it("answers 404 to a member (role member) on the admin pages", async () => {
    for (const kind of ["partner", "lender"] as const) {
      const org = await createOrganisation(kind);
      const member = await signedInMember(org.id, "member");
      for (const path of ["/members", "/audit", "/keys", "/webhooks"]) {
        const res = await portal("GET", path, { session: member });
        expect(res.status, `${kind} ${path}`).toBe(404);
        expect(res.text).toContain("Not found");
      }
      const invite = await portal("POST", "/members/invitations", { session: member, form: { email: "x@example.test", role: "admin" } });
      expect(invite.status).toBe(404);
      expect(await auditActions(org.id)).toEqual([]);
    }
  });
});

describe("audit log page", () => {
  it("shows the organisation's entries newest first, with who did them, keyset paged", async () => {
    const org = await createOrganisation("lender");
    const session = await signedInMember(org.id, "admin", "auditor@example.test");
    const viewer = { memberId: session.memberId, email: session.email, role: "admin" as const, organisationId: org.id, organisationName: "x", organisationKind: "lender" as const, environment: "sandbox" as const, sessionId: "s", passkeyVerifiedAt: 0 };
    const deps = testDeps();
    for (let i = 0; i < 55; i++) await recordPortalAction(deps, viewer, "deal.viewed", `deal_${String(i).padStart(2, "0")}`);
    const other = await createOrganisation("lender");
    const outsider = await signedInMember(other.id, "admin");
    await recordPortalAction(deps, { ...viewer, organisationId: other.id, memberId: outsider.memberId }, "deal.viewed", "deal_elsewhere");

    const first = await portal("GET", "/audit", { session });
    expect(first.status).toBe(200);
    expect(first.text).toContain("auditor@example.test");
    expect(first.text.indexOf("deal_54")).toBeLessThan(first.text.indexOf("deal_53"));
    expect(first.text).not.toContain("deal_04");
    expect(first.text).not.toContain("deal_elsewhere");
    const next = /href="\/portal\/audit\?cursor=([^"]+)"/.exec(first.text)![1];
    const second = await portal("GET", `/audit?cursor=${next}`, { session });
    expect(second.status).toBe(200);
    expect(second.text).toContain("deal_04");
    expect(second.text).toContain("deal_00");
    expect(second.text).not.toContain("deal_05");
    expect(second.text).not.toContain("Older entries");

    // A cursor is bound to its organisation: another's admin cannot page through it.
    expect((await portal("GET", `/audit?cursor=${next}`, { session: outsider })).status).toBe(400);
    expect((await portal("GET", "/audit?cursor=garbage", { session })).status).toBe(400);
  });
});

/**
 * Issue 39 item 3: two admins removing each other at the same moment. Each request resolved its viewer
 * (an admin) before either removal was written, as two requests that cross do; the removal batch itself
 * must read that its actor is still a current admin, so exactly one of the two wins and an admin remains.
 */
describe("two admins removing each other at once", () => {
  it("exactly one removal wins, 20 times over, and the organisation keeps an admin", async () => {
    for (let round = 0; round < 20; round++) {
      const org = await createOrganisation("partner");
      const a = await signedInMember(org.id, "admin");
      const b = await signedInMember(org.id, "admin");
      const viewerOf = async (s: typeof a) => (await viewerOfSession(testDeps(), s.cookie.split("=")[1]!))!;
      const [asA, asB] = await Promise.all([viewerOf(a), viewerOf(b)]);
      const outcomes = await Promise.allSettled([removeMemberOf(testDeps(), asA, b.memberId), removeMemberOf(testDeps(), asB, a.memberId)]);
      expect(outcomes.filter((o) => o.status === "fulfilled"), `round ${round}`).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: "conflict", field: "member" });
      const admins = await env.DB.prepare("select count(*) as n from portal_members where organisation_id = ? and role = 'admin' and removed_at is null").bind(org.id).first<{ n: number }>();
      expect(admins!.n).toBe(1);
      expect((await auditActions(org.id)).map((e) => e.action)).toEqual(["member.removed"]);
    }
  });

  it("through the pages too: two crossing posts leave one admin, 20 times over", async () => {
    for (let round = 0; round < 20; round++) {
      const org = await createOrganisation("lender");
      const a = await signedInMember(org.id, "admin");
      const b = await signedInMember(org.id, "admin");
      const [byA, byB] = await Promise.all([
        portal("POST", `/members/${b.memberId}/remove`, { session: a, form: { confirmed: "yes" } }),
        portal("POST", `/members/${a.memberId}/remove`, { session: b, form: { confirmed: "yes" } }),
      ]);
      // The loser is refused (409), or finds its session already ended (303 to sign-in) when it came second.
      expect([byA, byB].filter((r) => r.status === 303 && r.location === "/portal/members"), `round ${round}`).toHaveLength(1);
      const admins = await env.DB.prepare("select count(*) as n from portal_members where organisation_id = ? and role = 'admin' and removed_at is null").bind(org.id).first<{ n: number }>();
      expect(admins!.n).toBe(1);
    }
  });
});
