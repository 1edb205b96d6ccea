/**
 * Issue 23 item 4 (members), lost passkey: an admin sends a current member a new sign-in link. Its
 * acceptance enrols a new passkey and, in the same batch, deletes the member's old passkeys and
 * sessions; the member keeps their id and role (an invitation never changes a role).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portal, signedInMember, type PortalSession } from "../helpers/portal";
import { invite, openInvitationLink, registerThroughInvitation, signInWith } from "../helpers/portal-ceremony";
import { createOrganisation } from "../helpers/seed";

const asSession = (cookie: string | null) => ({ cookie: cookie ?? "" }) as PortalSession;
const address = () => `192.0.2.${10 + Math.floor(Math.random() * 200)}`;
const auditActions = async (organisationId: string) =>
  (await env.DB.prepare("select action, target, member_id from portal_audit_log where organisation_id = ? order by at, rowid").bind(organisationId).all<any>()).results;
const linkOf = (html: string) => /\/portal\/invitations\/([A-Za-z0-9]{43})/.exec(html)?.[1] ?? null;

describe("a new sign-in link for a member who lost their passkey", () => {
  it("enrols a new passkey; the old passkeys and sessions die in the same batch; the member keeps id and role", async () => {
    const org = await createOrganisation("partner", "Lost Key Partners");
    const boss = await signedInMember(org.id, "admin");
    const { token, email } = await invite(org.id, "member");
    const first = await registerThroughInvitation(token);
    const memberId = (await env.DB.prepare("select id from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<{ id: string }>())!.id;
    // The role changed since the first invitation: the new link must not undo that.
    expect((await portal("POST", `/members/${memberId}/role`, { session: boss, form: { role: "admin" } })).status).toBe(303);

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
    expect((await signInWith(first.passkey, address())).verified.status).toBe(400);
    expect((await signInWith(second.passkey, address())).verified.status).toBe(200);
    const passkeys = await env.DB.prepare("select credential_id from portal_passkeys where member_id = ?").bind(memberId).all<any>();
    expect(passkeys.results).toEqual([{ credential_id: second.passkey.credentialId }]);
    const member = await env.DB.prepare("select id, role, removed_at from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<any>();
    expect(member).toEqual({ id: memberId, role: "admin", removed_at: null });
    const actions = (await auditActions(org.id)).map((a) => a.action);
    expect(actions.filter((a) => a !== "session.opened")).toEqual(["member.joined", "member.role_changed_to_admin", "member.reinvited", "member.reenrolled"]);
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
