/**
 * Issue 23 item 4 (members): new invitations default to Member, and an admin changes a member's
 * role behind the confirm page: its own audited action in one batch, never demoting the last admin,
 * and the member's open sessions hold the new role at once.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation } from "../../helpers/seed";

const auditActions = async (organisationId: string) =>
  (await env.DB.prepare("select action, target, member_id from portal_audit_log where organisation_id = ? order by at, rowid").bind(organisationId).all<any>()).results;
const roleOf = async (memberId: string) => (await env.DB.prepare("select role from portal_members where id = ?").bind(memberId).first<{ role: string }>())?.role;
const selectedRole = (html: string) => [...html.matchAll(/<option value="(\w+)"( selected="")?/g)].filter((m) => m[2]).map((m) => m[1]);

describe("new invitations default to Member", () => {
  it("preselects Member on the page, and again after a refused role", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const page = await portal("GET", "/members", { session });
    expect(selectedRole(page.text)).toEqual(["member"]);
    // The first option is Member too, so a browser that ignores `selected` still offers Member.
    expect(/<select id="role"[^>]*><option value="(\w+)"/.exec(page.text)![1]).toBe("member");
    const refused = await portal("POST", "/members/invitations", { session, form: { email: "someone@example.test", role: "owner" } });
    expect(refused.status).toBe(400);
    expect(selectedRole(refused.text)).toEqual(["member"]);
    const admin = await portal("POST", "/members/invitations", { session, form: { email: "nope", role: "admin" } });
    expect(admin.status).toBe(400);
    expect(selectedRole(admin.text)).toEqual(["admin"]);
  });
});

describe("changing a member's role", () => {
  it("asks first on a confirm page, then changes the role in one batch with its audit entry; the member's session has the new role at once", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin", `boss-${crypto.randomUUID().slice(0, 6)}@example.test`);
    const clerk = await signedInMember(org.id, "member", `clerk-${crypto.randomUUID().slice(0, 6)}@example.test`);
    expect((await portal("GET", "/members", { session: clerk })).status).toBe(404);

    const list = await portal("GET", "/members", { session: boss });
    expect(list.text).toContain(`href="/portal/members/${clerk.memberId}/role"`);
    const question = await portal("GET", `/members/${clerk.memberId}/role`, { session: boss });
    expect(question.status).toBe(200);
    expect(question.text).toContain(`Make ${clerk.email} an admin?`);
    expect(question.text).toContain('name="role" value="admin"');
    expect(question.text).toContain('href="/portal/members"');
    expect(await auditActions(org.id)).toEqual([]);

    const made = await portal("POST", `/members/${clerk.memberId}/role`, { session: boss, form: { role: "admin" } });
    expect(made.status).toBe(303);
    expect(made.headers.get("location")).toContain("/portal/members?notice=role_changed");
    expect(await roleOf(clerk.memberId)).toBe("admin");
    // The clerk's open session is an admin's now, without signing in again.
    expect((await portal("GET", "/members", { session: clerk })).status).toBe(200);
    expect(await auditActions(org.id)).toEqual([{ action: "member.role_changed_to_admin", target: clerk.memberId, member_id: boss.memberId }]);
    expect((await portal("GET", "/members?notice=role_changed", { session: boss })).text).toContain("role was changed");

    // Back to member: the session loses the admin pages at once.
    expect((await portal("GET", `/members/${clerk.memberId}/role`, { session: boss })).text).toContain(`Make ${clerk.email} a member?`);
    expect((await portal("POST", `/members/${clerk.memberId}/role`, { session: boss, form: { role: "member" } })).status).toBe(303);
    expect((await portal("GET", "/members", { session: clerk })).status).toBe(404);
    expect((await auditActions(org.id)).map((a) => a.action)).toEqual(["member.role_changed_to_admin", "member.role_changed_to_member"]);
  });

  it("refuses to demote the last admin, oneself included, with a clear message and nothing written", async () => {
    const org = await createOrganisation("lender");
    const only = await signedInMember(org.id, "admin");
    await signedInMember(org.id, "member");
    const refused = await portal("POST", `/members/${only.memberId}/role`, { session: only, form: { role: "member" } });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("the only admin");
    expect(await roleOf(only.memberId)).toBe("admin");
    expect(await auditActions(org.id)).toEqual([]);

    // With a second admin, an admin may step down; their own session is a member's at once.
    const second = await signedInMember(org.id, "admin");
    expect((await portal("POST", `/members/${only.memberId}/role`, { session: only, form: { role: "member" } })).status).toBe(303);
    expect((await portal("GET", "/members", { session: only })).status).toBe(404);
    // Now the second is the last one.
    expect((await portal("POST", `/members/${second.memberId}/role`, { session: second, form: { role: "member" } })).status).toBe(409);
    expect(await roleOf(second.memberId)).toBe("admin");
    expect((await auditActions(org.id)).map((a) => a.action)).toEqual(["member.role_changed_to_member"]);
  });

  it("answers 404 for another organisation's member, a removed one and a member's own request; 400 for an unknown role; 409 for the role they have", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin");
    const clerk = await signedInMember(org.id, "member");
    const other = await createOrganisation("partner");
    const outsider = await signedInMember(other.id, "member");
    expect((await portal("GET", `/members/${outsider.memberId}/role`, { session: boss })).status).toBe(404);
    expect((await portal("POST", `/members/${outsider.memberId}/role`, { session: boss, form: { role: "admin" } })).status).toBe(404);
    expect(await roleOf(outsider.memberId)).toBe("member");
    expect((await portal("POST", `/members/${boss.memberId}/role`, { session: clerk, form: { role: "member" } })).status).toBe(404);
    const bad = await portal("POST", `/members/${clerk.memberId}/role`, { session: boss, form: { role: "owner" } });
    expect(bad.status).toBe(400);
    const same = await portal("POST", `/members/${clerk.memberId}/role`, { session: boss, form: { role: "member" } });
    expect(same.status).toBe(409);
    expect(same.text).toContain("already");
    const leaver = await signedInMember(org.id, "member");
    expect((await portal("POST", `/members/${leaver.memberId}/remove`, { session: boss, form: { confirmed: "yes" } })).status).toBe(303);
    expect((await portal("GET", `/members/${leaver.memberId}/role`, { session: boss })).status).toBe(404);
    expect((await portal("POST", `/members/${leaver.memberId}/role`, { session: boss, form: { role: "admin" } })).status).toBe(404);
    expect((await auditActions(org.id)).map((a) => a.action)).toEqual(["member.removed"]);
  });
});
