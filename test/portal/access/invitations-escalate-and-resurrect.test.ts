/**
 * Issue 21 item 1, "Invitations escalate and resurrect": an invitation never
 * raises a current member's role, a removed member cannot come back through an
 * old link or an old passkey, and pending invitations are visible and
 * revocable by the organisation's admins and by the operator.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { invite, portalJson, registerThroughInvitation, signInWith } from "../../helpers/portal-ceremony";
import { createOrganisation, expectProblem } from "../../helpers/seed";
import { sha256Hex } from "../../../src/lib/crypto";

const memberRow = (organisationId: string, email: string) =>
  env.DB.prepare("select id, role, removed_at from portal_members where organisation_id = ? and email = ?").bind(organisationId, email).first<any>();

const auditActions = async (organisationId: string) =>
  (await env.DB.prepare("select action, target, member_id from portal_audit_log where organisation_id = ? order by at, id").bind(organisationId).all<any>()).results;

/** A pending invitation written straight to D1, as one issued before the rules below existed would be. */
async function strayInvitation(organisationId: string, email: string, role: "admin" | "member") {
  const token = crypto.randomUUID().replace(/-/g, "") + "strayinvitationtokenxx";
  const id = `inv_stray${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.prepare(
    "insert into portal_invitations (id, organisation_id, email, role, token_hash, invited_by, expires_at, created_at) values (?, ?, ?, ?, ?, 'operator', ?, ?)",
  )
    .bind(id, organisationId, email, role, await sha256Hex(token), Math.floor(Date.now() / 1000) + 3600, new Date().toISOString())
    .run();
  return { id, token };
}

describe("issue 21 item 1: invitations escalate and resurrect", () => {
  it("issuing an invitation revokes every other pending one for that email: the admin link dies when a member link follows", async () => {
    const org = await createOrganisation("partner");
    const asAdmin = await invite(org.id, "admin", "bob@example.test");
    const asMember = await invite(org.id, "member", "bob@example.test");
    const { verified } = await registerThroughInvitation(asMember.token);
    expect(verified.status).toBe(200);
    expect((await portal("GET", `/invitations/${asAdmin.token}`)).status).toBe(404);
    expect((await portalJson(`/invitations/${asAdmin.token}/options`, {})).status).toBe(404);
    expect((await memberRow(org.id, "bob@example.test")).role).toBe("member");
  });

  it("acceptance refuses an email that is a current member and never changes that member's role", async () => {
    const org = await createOrganisation("partner");
    const stray = await strayInvitation(org.id, "carol@example.test", "admin");
    const carol = await signedInMember(org.id, "member", "carol@example.test");
    const options = await portalJson(`/invitations/${stray.token}/options`, {});
    if (options.status === 200) {
      const { verified } = await registerThroughInvitation(stray.token);
      expect(verified.status).toBe(404);
    } else {
      expect(options.status).toBe(404);
    }
    expect(await memberRow(org.id, "carol@example.test")).toMatchObject({ id: carol.memberId, role: "member", removed_at: null });
    expect((await env.DB.prepare("select count(*) as n from portal_passkeys where member_id = ?").bind(carol.memberId).first<any>()).n).toBe(0);
  });

  it("accepting revokes the other pending invitations for that email in the same batch", async () => {
    const org = await createOrganisation("lender");
    const link = await invite(org.id, "member", "dan@example.test");
    const stray = await strayInvitation(org.id, "dan@example.test", "admin");
    expect((await registerThroughInvitation(link.token)).verified.status).toBe(200);
    const row = await env.DB.prepare("select accepted_at, revoked_at from portal_invitations where id = ?").bind(stray.id).first<any>();
    expect(row.accepted_at).toBeNull();
    expect(row.revoked_at).not.toBeNull();
    expect((await portal("GET", `/invitations/${stray.token}`)).status).toBe(404);
  });

  it("removing a member deletes their passkeys and sessions and revokes their pending invitations: no second link, no old passkey", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin");
    const link = await invite(org.id, "member", "erin@example.test");
    const { passkey, verified } = await registerThroughInvitation(link.token);
    expect(verified.status).toBe(200);
    const erin = await memberRow(org.id, "erin@example.test");
    const second = await strayInvitation(org.id, "erin@example.test", "member");

    expect((await portal("POST", `/members/${erin.id}/remove`, { session: boss, form: { confirmed: "yes" } })).status).toBe(303);
    const count = async (table: string) => (await env.DB.prepare(`select count(*) as n from ${table} where member_id = ?`).bind(erin.id).first<any>()).n;
    expect(await count("portal_passkeys")).toBe(0);
    expect(await count("portal_sessions")).toBe(0);
    expect((await portal("GET", `/invitations/${second.token}`)).status).toBe(404);
    expect((await signInWith(passkey, "192.0.2.77")).verified.status).toBe(400);

    // Invited again on purpose, she comes back with a new passkey only; the old one stays dead.
    const again = await invite(org.id, "member", "erin@example.test");
    expect((await registerThroughInvitation(again.token)).verified.status).toBe(200);
    expect((await signInWith(passkey, "192.0.2.78")).verified.status).toBe(400);
  });

  it("lists pending invitations with Revoke on the Members page; revoking kills the link and is audited", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin");
    const pending = await invite(org.id, "admin", "frank@example.test");
    const page = await portal("GET", "/members", { session: boss });
    expect(page.text).toContain("frank@example.test");
    expect(page.text).toContain(`/portal/members/invitations/${pending.id}/revoke`);
    const revoked = await portal("POST", `/members/invitations/${pending.id}/revoke`, { session: boss, form: {} });
    expect(revoked.status).toBe(303);
    expect((await portal("GET", `/invitations/${pending.token}`)).status).toBe(404);
    expect((await portal("GET", "/members", { session: boss })).text).not.toContain("frank@example.test");
    expect(await auditActions(org.id)).toEqual([{ action: "invitation.revoked", target: pending.id, member_id: boss.memberId }]);
    // Another organisation's invitation, or one already revoked, is not found here.
    const other = await createOrganisation("partner");
    const foreign = await invite(other.id, "admin");
    expect((await portal("POST", `/members/invitations/${foreign.id}/revoke`, { session: boss, form: {} })).status).toBe(404);
    expect((await portal("POST", `/members/invitations/${pending.id}/revoke`, { session: boss, form: {} })).status).toBe(404);
    expect((await portal("GET", `/invitations/${foreign.token}`)).status).toBe(303); // still open: traded for the invitation cookie
  });

  it("lists and revokes pending invitations through the operator API, audited as the operator's", async () => {
    const org = await createOrganisation("lender");
    const pending = await invite(org.id, "admin", "gina@example.test");
    const used = await invite(org.id, "member", "hal@example.test");
    await registerThroughInvitation(used.token);
    const list = await admin("GET", `/organisations/${org.id}/invitations`);
    expect(list.status).toBe(200);
    expect(list.headers.get("Cache-Control")).toBe("no-store");
    expect(list.body.data).toEqual([expect.objectContaining({ id: pending.id, email: "gina@example.test", role: "admin", organisation_id: org.id })]);
    expect(JSON.stringify(list.body)).not.toContain(pending.token);

    const other = await createOrganisation("lender");
    expectProblem(await admin("DELETE", `/organisations/${other.id}/invitations/${pending.id}`), 404, "not_found");
    expect((await admin("DELETE", `/organisations/${org.id}/invitations/${pending.id}`)).status).toBe(204);
    expectProblem(await admin("DELETE", `/organisations/${org.id}/invitations/${pending.id}`), 404, "not_found");
    expect((await portal("GET", `/invitations/${pending.token}`)).status).toBe(404);
    expect((await admin("GET", `/organisations/${org.id}/invitations`)).body.data).toEqual([]);
    expect((await auditActions(org.id)).filter((a: any) => a.action === "invitation.revoked")).toEqual([{ action: "invitation.revoked", target: pending.id, member_id: "operator" }]);

    const doc = await admin("GET", "/openapi.json");
    expect(doc.body.paths["/organisations/{id}/invitations"].get).toBeDefined();
    expect(doc.body.paths["/organisations/{id}/invitations/{invitation_id}"].delete).toBeDefined();
  });
});
