/**
 * Issue 23 item 4 (members), lost passkey: an admin sends a current member a new sign-in link. Its
 * acceptance enrols a new passkey and, in the same batch, deletes the member's old passkeys and
 * sessions; the member keeps their id and role (an invitation never changes a role).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portal, signedInMember, type PortalSession } from "../../helpers/portal";
import { invite, openInvitationLink, registerThroughInvitation, signInWith } from "../../helpers/portal-ceremony";
import { createOrganisation } from "../../helpers/seed";
import { admin } from "../../helpers/api";

const asSession = (cookie: string | null) => ({ cookie: cookie ?? "" }) as PortalSession;
const address = () => `192.0.2.${10 + Math.floor(Math.random() * 200)}`;
const auditActions = async (organisationId: string) =>
  (await env.DB.prepare("select action, target, member_id from portal_audit_log where organisation_id = ? order by at, rowid").bind(organisationId).all<any>()).results;
/** What using a link answers: the options' refusal when it does not open, else the verify's status. */
const enrolStatus = async (link: string) => {
  try {
    return (await registerThroughInvitation(link)).verified.status;
  } catch (error) {
    const refused = /options refused: (\d+)/.exec(String(error));
    if (refused) return Number(refused[1]);
    throw error;
  }
};
const linkOf = (html: string) => /\/portal\/invitations\/([A-Za-z0-9]{43})/.exec(html)?.[1] ?? null;

describe("a new sign-in link for a member who lost their passkey", () => {
  it("enrols a new passkey; the old passkeys and sessions die in the same batch; the member keeps id and role", async () => {
    const org = await createOrganisation("partner", "Lost Key Partners");
    const boss = await signedInMember(org.id, "admin");
    const { token, email } = await invite(org.id, "admin");
    const first = await registerThroughInvitation(token);
    const memberId = (await env.DB.prepare("select id from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<{ id: string }>())!.id;
    // The role changed since the first invitation: the new link must not undo that.
    expect((await portal("POST", `/members/${memberId}/role`, { session: boss, form: { role: "member" } })).status).toBe(303);

    const members = await portal("GET", "/members", { session: boss });
    expect(members.text).toContain(`action="/portal/members/${memberId}/reinvite"`);
    const issued = await portal("POST", `/members/${memberId}/reinvite`, { session: boss, form: {} });
    expect(issued.status).toBe(201);
    expect(issued.text).toContain(`New sign-in link for ${email}`);
    const link = linkOf(issued.text);
    expect(link).not.toBeNull();
    const invitation = await env.DB.prepare("select id, member_id, accepted_at from portal_invitations where organisation_id = ? and email = ? and accepted_at is null").bind(org.id, email).first<any>();
    expect(invitation.member_id).toBe(memberId);

    // Until the link is used nothing changes: the old passkey still signs in.
    expect((await signInWith(first.passkey, address())).verified.status).toBe(200);
    // The link is traded for its cookie (issue 21 item 6); the page it lands on says what the link does.
    const page = await openInvitationLink(link!);
    expect(page.status).toBe(200);
    expect(page.text).toContain("replaces your passkeys");

    const second = await registerThroughInvitation(link!);
    expect(second.verified.status).toBe(200);
    expect(second.verified.body).toEqual({ redirect: "/portal" });
    expect((await portal("GET", "/", { session: asSession(second.cookie) })).status).toBe(200);
    // The old session and the old passkey are gone.
    const old = await portal("GET", "/", { session: asSession(first.cookie) });
    expect(old.status).toBe(303);
    expect(old.location).toBe("/portal/sign-in");
    // The old passkey is told it was replaced (issue 39 item 1), and opens nothing.
    expect((await signInWith(first.passkey, address())).verified.status).toBe(409);
    expect((await signInWith(second.passkey, address())).verified.status).toBe(200);
    const passkeys = await env.DB.prepare("select credential_id from portal_passkeys where member_id = ?").bind(memberId).all<any>();
    expect(passkeys.results).toEqual([{ credential_id: second.passkey.credentialId }]);
    const member = await env.DB.prepare("select id, role, removed_at from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<any>();
    expect(member).toEqual({ id: memberId, role: "member", removed_at: null });
    const actions = (await auditActions(org.id)).map((a) => a.action);
    expect(actions.filter((a) => a !== "session.opened")).toEqual(["member.joined", "member.role_changed_to_member", "member.reinvited", "member.reenrolled"]);
    expect(await auditActions(org.id)).toContainEqual({ action: "member.reinvited", target: invitation.id, member_id: boss.memberId });
    expect(await auditActions(org.id)).toContainEqual({ action: "member.reenrolled", target: memberId, member_id: memberId });
    // The link worked once.
    expect((await portal("GET", `/invitations/${link}`)).status).toBe(404);
  });

  it("a link for a member who was removed meanwhile, or revoked, enrols nothing", async () => {
    const org = await createOrganisation("lender");
    const boss = await signedInMember(org.id, "admin");
    const clerk = await signedInMember(org.id, "member");
    const link = linkOf((await portal("POST", `/members/${clerk.memberId}/reinvite`, { session: boss, form: {} })).text);
    expect((await portal("POST", `/members/${clerk.memberId}/remove`, { session: boss, form: { confirmed: "yes" } })).status).toBe(303);
    expect((await portal("GET", `/invitations/${link}`)).status).toBe(404);

    const other = await signedInMember(org.id, "member");
    const second = linkOf((await portal("POST", `/members/${other.memberId}/reinvite`, { session: boss, form: {} })).text);
    const pending = await env.DB.prepare("select id from portal_invitations where organisation_id = ? and member_id = ? and accepted_at is null").bind(org.id, other.memberId).first<{ id: string }>();
    expect((await portal("POST", `/members/invitations/${pending!.id}/revoke`, { session: boss, form: {} })).status).toBe(303);
    expect((await portal("GET", `/invitations/${second}`)).status).toBe(404);
    // Their session was never touched.
    expect((await portal("GET", "/", { session: other })).status).toBe(200);
  });

  it("answers 404 for another organisation's or a removed member and to a member; 409 for oneself; an operator invitation for a current member stays 409", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin");
    const clerk = await signedInMember(org.id, "member");
    const outsider = await signedInMember((await createOrganisation("partner")).id, "member");
    expect((await portal("POST", `/members/${outsider.memberId}/reinvite`, { session: boss, form: {} })).status).toBe(404);
    expect((await portal("POST", `/members/${boss.memberId}/reinvite`, { session: clerk, form: {} })).status).toBe(404);
    expect((await portal("POST", `/members/${boss.memberId}/reinvite`, { session: boss, form: {} })).status).toBe(409);
    const count = await env.DB.prepare("select count(*) as n from portal_invitations where organisation_id = ?").bind(org.id).first<{ n: number }>();
    expect(count!.n).toBe(0);
    await expect(invite(org.id, "member", clerk.email)).rejects.toThrow(/409/);
    expect(await auditActions(org.id)).toEqual([]);
  });
});

/**
 * Issue 39 item 1: a removed admin kept working links, and any admin could take over another admin
 * through a new sign-in link. Now removal revokes every pending link the removed member issued (same
 * batch); the pending list names each link's issuer and kind; only the operator makes a new sign-in link
 * for an admin; and the member a link replaced is told so the next time they sign in with an old passkey.
 */
describe("issue 39 item 1: links an admin issued", () => {
  const pendingOf = async (organisationId: string) =>
    (await env.DB.prepare("select id, email, member_id, invited_by, revoked_at from portal_invitations where organisation_id = ? order by created_at, rowid").bind(organisationId).all<any>()).results;

  it("removing an admin revokes every pending link they issued, invitations and new sign-in links alike, in the removal's batch", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin");
    const x = await signedInMember(org.id, "admin");
    const clerk = await signedInMember(org.id, "member");
    const backdoor = linkOf((await portal("POST", "/members/invitations", { session: x, form: { email: "backdoor@example.test", role: "admin" } })).text);
    const takeover = linkOf((await portal("POST", `/members/${clerk.memberId}/reinvite`, { session: x, form: {} })).text);
    expect(backdoor).not.toBeNull();
    expect(takeover).not.toBeNull();

    expect((await portal("POST", `/members/${x.memberId}/remove`, { session: boss, form: { confirmed: "yes" } })).location).toBe("/portal/members");
    expect((await openInvitationLink(backdoor!)).status).toBe(404);
    expect((await openInvitationLink(takeover!)).status).toBe(404);
    expect(await enrolStatus(backdoor!)).toBe(404);
    expect(await enrolStatus(takeover!)).toBe(404);
    const removedAt = (await env.DB.prepare("select removed_at from portal_members where id = ?").bind(x.memberId).first<{ removed_at: string }>())!.removed_at;
    expect((await pendingOf(org.id)).map((i) => i.revoked_at)).toEqual([removedAt, removedAt]);
    expect(await env.DB.prepare("select count(*) as n from portal_members where organisation_id = ? and email = 'backdoor@example.test'").bind(org.id).first("n")).toBe(0);
    // The clerk was never touched.
    expect((await portal("GET", "/", { session: clerk })).status).toBe(200);
  });

  it("lists each pending link with who issued it and what it does", async () => {
    const org = await createOrganisation("lender");
    const boss = await signedInMember(org.id, "admin", `boss-${crypto.randomUUID().slice(0, 6)}@example.test`);
    const clerk = await signedInMember(org.id, "member");
    await invite(org.id, "member", "from-operator@example.test");
    expect((await portal("POST", "/members/invitations", { session: boss, form: { email: "from-boss@example.test", role: "admin" } })).status).toBe(201);
    expect((await portal("POST", `/members/${clerk.memberId}/reinvite`, { session: boss, form: {} })).status).toBe(201);
    const page = await portal("GET", "/members", { session: boss });
    const rows = [...page.text.matchAll(/<tr>(.*?)<\/tr>/gs)].map((m) => m[1]!.replace(/<[^>]+>/g, " ").replace(/&#39;/g, "'").replace(/\s+/g, " ").trim());
    const rowOf = (email: string) => rows.find((r) => r.startsWith(email) && /Issued by|Operator|@/.test(r) && /Revoke/.test(r));
    expect(rowOf("from-operator@example.test")).toMatch(/Invitation as Member.*Operator/);
    expect(rowOf("from-boss@example.test")).toMatch(new RegExp(`Invitation as Admin.*${boss.email}`));
    expect(rowOf(clerk.email)).toMatch(new RegExp(`New sign-in link: replaces this member's passkeys.*${boss.email}`));
  });

  it("an admin cannot make a new sign-in link for another admin; the operator can, and its link replaces the admin's passkeys", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin");
    const { token, email } = await invite(org.id, "admin");
    const victim = await registerThroughInvitation(token);
    const victimId = (await env.DB.prepare("select id from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<{ id: string }>())!.id;

    const members = await portal("GET", "/members", { session: boss });
    expect(members.text).not.toContain(`action="/portal/members/${victimId}/reinvite"`);
    const refused = await portal("POST", `/members/${victimId}/reinvite`, { session: boss, form: {} });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("only the operator");
    expect(await env.DB.prepare("select count(*) as n from portal_invitations where organisation_id = ? and member_id = ? and accepted_at is null").bind(org.id, victimId).first("n")).toBe(0);

    const issued = await admin("POST", `/organisations/${org.id}/members/${victimId}/sign-in-link`);
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ organisation_id: org.id, email, role: "admin", member_id: victimId });
    const link = new URL(issued.body.url).pathname.split("/").pop()!;
    const listed = await admin("GET", `/organisations/${org.id}/invitations`);
    expect(listed.body.data).toContainEqual(expect.objectContaining({ id: issued.body.id, member_id: victimId, invited_by: "operator" }));
    const second = await registerThroughInvitation(link);
    expect(second.verified.status).toBe(200);
    expect((await signInWith(victim.passkey, address())).verified.status).toBe(409);
    expect(await auditActions(org.id)).toContainEqual({ action: "member.reinvited", target: issued.body.id, member_id: "operator" });

    expect((await admin("POST", `/organisations/${org.id}/members/mem_nobody/sign-in-link`)).status).toBe(404);
    const elsewhere = await signedInMember((await createOrganisation("partner")).id, "member");
    expect((await admin("POST", `/organisations/${org.id}/members/${elsewhere.memberId}/sign-in-link`)).status).toBe(404);
  });

  it("a member's link replaces nothing once the member is an admin, or once its issuer is no admin", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin");
    const second = await signedInMember(org.id, "admin");
    const { token, email } = await invite(org.id, "member");
    const first = await registerThroughInvitation(token);
    const memberId = (await env.DB.prepare("select id from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<{ id: string }>())!.id;
    const link = linkOf((await portal("POST", `/members/${memberId}/reinvite`, { session: boss, form: {} })).text);
    expect((await portal("POST", `/members/${memberId}/role`, { session: second, form: { role: "admin" } })).status).toBe(303);
    expect(await enrolStatus(link!)).toBe(404);
    expect((await signInWith(first.passkey, address())).verified.status).toBe(200);

    // Demoting the issuer revokes what they issued, in the same batch.
    expect((await portal("POST", `/members/${memberId}/role`, { session: second, form: { role: "member" } })).status).toBe(303);
    const again = linkOf((await portal("POST", `/members/${memberId}/reinvite`, { session: boss, form: {} })).text);
    const invited = linkOf((await portal("POST", "/members/invitations", { session: boss, form: { email: "later@example.test", role: "admin" } })).text);
    expect((await portal("POST", `/members/${boss.memberId}/role`, { session: second, form: { role: "member" } })).status).toBe(303);
    expect(await enrolStatus(again!)).toBe(404);
    expect(await enrolStatus(invited!)).toBe(404);
    expect((await signInWith(first.passkey, address())).verified.status).toBe(200);
  });

  it("the member a link replaced is told so, with when and by whom, when they next sign in with an old passkey", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin", `boss-${crypto.randomUUID().slice(0, 6)}@example.test`);
    const { token, email } = await invite(org.id, "member");
    const victim = await registerThroughInvitation(token);
    const memberId = (await env.DB.prepare("select id from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<{ id: string }>())!.id;
    const link = linkOf((await portal("POST", `/members/${memberId}/reinvite`, { session: boss, form: {} })).text);
    expect((await registerThroughInvitation(link!)).verified.status).toBe(200);

    const attempt = await signInWith(victim.passkey, address());
    expect(attempt.verified.status).toBe(409);
    expect(attempt.cookie).toBeNull();
    expect(attempt.verified.body.detail).toContain("replaced");
    expect(attempt.verified.body.detail).toContain(boss.email);
    expect(attempt.verified.body.detail).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/);
    // A passkey nobody replaced and nobody knows is still the plain refusal.
    const { softwarePasskey } = await import("../../helpers/software-authenticator");
    expect((await signInWith(await softwarePasskey(), address())).verified.status).toBe(400);
  });
});
