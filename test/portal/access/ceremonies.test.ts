import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newClientAddress, PRODUCTION } from "../../helpers/api";
import { portal, type PortalSession } from "../../helpers/portal";
import { invite, portalJson, registerThroughInvitation, signInWith } from "../../helpers/portal-ceremony";
import { createOrganisation } from "../../helpers/seed";
import { softwarePasskey } from "../../helpers/software-authenticator";
import { runScheduledWork } from "../../../src/jobs/scheduled";
import { settleOutbox } from "../../webhooks/support/webhooks";
import { SIGN_IN_ATTEMPTS_PER_ACCOUNT, SIGN_IN_ATTEMPTS_PER_ADDRESS, SIGN_IN_CHALLENGES_PER_ADDRESS } from "../../../src/domain/portal/sign-in-limits";

const asSession = (cookie: string | null) => ({ cookie: cookie ?? "" }) as PortalSession;

describe("passkey registration from an invitation", () => {
  it("verifies the passkey, creates the member with the invited role, uses the invitation and opens a session", async () => {
    const org = await createOrganisation("lender", "Ceremony Lenders");
    const { token, id, email } = await invite(org.id, "member");
    const { verified, cookie, passkey } = await registerThroughInvitation(token);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ redirect: "/portal" });
    expect(verified.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    const home = await portal("GET", "/", { session: asSession(cookie) });
    expect(home.status).toBe(200);
    expect(home.text).toContain("Ceremony Lenders");
    const member = await env.DB.prepare("select * from portal_members where organisation_id = ? and email = ?").bind(org.id, email).first<any>();
    expect(member.role).toBe("member");
    const invitation = await env.DB.prepare("select accepted_at, member_id from portal_invitations where id = ?").bind(id).first<any>();
    expect(invitation.member_id).toBe(member.id);
    const stored = await env.DB.prepare("select member_id, counter from portal_passkeys where credential_id = ?").bind(passkey.credentialId).first<any>();
    expect(stored).toEqual({ member_id: member.id, counter: 0 });
    const audit = await env.DB.prepare("select action, target from portal_audit_log where organisation_id = ?").bind(org.id).all<any>();
    expect(audit.results).toEqual([{ action: "member.joined", target: member.id }]);
  });

  it("uses an invitation once: a second passkey on the same link is refused and the link is gone", async () => {
    const org = await createOrganisation("partner");
    const { token } = await invite(org.id);
    const first = await portalJson(`/invitations/${token}/options`, {});
    const second = await portalJson(`/invitations/${token}/options`, {});
    const a = await softwarePasskey();
    const b = await softwarePasskey();
    const done = await portalJson(`/invitations/${token}/verify`, { challenge_id: first.body.challenge_id, response: await a.register(first.body.options, PRODUCTION) });
    expect(done.status).toBe(200);
    const again = await portalJson(`/invitations/${token}/verify`, { challenge_id: second.body.challenge_id, response: await b.register(second.body.options, PRODUCTION) });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("not_found");
    expect((await portalJson(`/invitations/${token}/options`, {})).status).toBe(404);
    const count = await env.DB.prepare("select count(*) as n from portal_members where organisation_id = ?").bind(org.id).first<any>();
    expect(count.n).toBe(1);
  });

  it("refuses a challenge answered twice, an expired challenge, one from another invitation, and a wrong origin", async () => {
    const org = await createOrganisation("partner");
    const { token } = await invite(org.id);
    const other = await invite(org.id);
    const key = await softwarePasskey();

    const foreign = await portalJson(`/invitations/${other.token}/options`, {});
    const crossed = await portalJson(`/invitations/${token}/verify`, { challenge_id: foreign.body.challenge_id, response: await key.register(foreign.body.options, PRODUCTION) });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error.field).toBe("response");

    const stale = await portalJson(`/invitations/${token}/options`, {});
    await env.DB.prepare("update portal_challenges set expires_at = ? where id = ?").bind(Math.floor(Date.now() / 1000) - 1, stale.body.challenge_id).run();
    expect((await portalJson(`/invitations/${token}/verify`, { challenge_id: stale.body.challenge_id, response: await key.register(stale.body.options, PRODUCTION) })).status).toBe(400);

    const phished = await portalJson(`/invitations/${token}/options`, {});
    expect((await portalJson(`/invitations/${token}/verify`, { challenge_id: phished.body.challenge_id, response: await key.register(phished.body.options, "https://evil.example") })).status).toBe(400);
    // Each refused answer used its challenge up.
    expect((await env.DB.prepare("select count(*) as n from portal_challenges where id in (?, ?, ?)").bind(foreign.body.challenge_id, stale.body.challenge_id, phished.body.challenge_id).first<any>()).n).toBe(0);

    const good = await portalJson(`/invitations/${token}/options`, {});
    const answer = { challenge_id: good.body.challenge_id, response: await key.register(good.body.options, PRODUCTION) };
    expect((await portalJson(`/invitations/${token}/verify`, answer)).status).toBe(200);
  });

  it("lets the cron remove challenges nobody answered once they expire", async () => {
    const issued = await portalJson("/sign-in/options", {}, { "CF-Connecting-IP": newClientAddress() });
    const alive = await portalJson("/sign-in/options", {}, { "CF-Connecting-IP": newClientAddress() });
    await env.DB.prepare("update portal_challenges set expires_at = ? where id = ?").bind(Math.floor(Date.now() / 1000) - 1, issued.body.challenge_id).run();
    // The whole cron runs: without this it would also dispatch what earlier files of the runtime left in the
    // outbox, and the local queue consumer would deliver it to their endpoints while later files run.
    await settleOutbox();
    await runScheduledWork(env);
    const left = await env.DB.prepare("select id from portal_challenges where id in (?, ?)").bind(issued.body.challenge_id, alive.body.challenge_id).all<any>();
    expect(left.results.map((r: any) => r.id)).toEqual([alive.body.challenge_id]);
  });

  it("names the field of a malformed answer", async () => {
    const org = await createOrganisation("partner");
    const { token } = await invite(org.id);
    const res = await portalJson(`/invitations/${token}/verify`, { challenge_id: "chl_x", response: { id: "abc", type: "password" } });
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body.error.field).toMatch(/^response\./);
    const notJson = await portalJson(`/invitations/${token}/verify`, "x");
    expect(notJson.status).toBe(400);
  });

  it("refuses a cross-site post to the ceremony", async () => {
    const org = await createOrganisation("partner");
    const { token } = await invite(org.id);
    const res = await portalJson(`/invitations/${token}/options`, {}, { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });
});

describe("signing in with a passkey", () => {
  it("signs in with the passkey (no email asked), checks the counter and writes the audit entry", async () => {
    const org = await createOrganisation("partner", "Sign-in Partners");
    const { token } = await invite(org.id, "admin");
    const { passkey } = await registerThroughInvitation(token);
    const first = await signInWith(passkey, newClientAddress());
    expect(first.verified.status).toBe(200);
    expect((await portal("GET", "/", { session: asSession(first.cookie) })).text).toContain("Sign-in Partners");
    expect((await env.DB.prepare("select counter from portal_passkeys where credential_id = ?").bind(passkey.credentialId).first<any>()).counter).toBe(1);

    // An assertion whose counter did not move forward (a cloned authenticator) opens nothing.
    const cloned = await signInWith(passkey, newClientAddress(), { counter: 1 });
    expect(cloned.verified.status).toBe(400);
    expect(cloned.cookie).toBeNull();

    // The same answer sent twice: the challenge was used by the first.
    const fresh = await signInWith(passkey, newClientAddress());
    expect(fresh.verified.status).toBe(200);
    const replay = await portalJson("/sign-in/verify", { challenge_id: fresh.challengeId, response: fresh.response }, { "CF-Connecting-IP": newClientAddress() });
    expect(replay.status).toBe(400);

    const actions = await env.DB.prepare("select action from portal_audit_log where organisation_id = ? order by at, rowid").bind(org.id).all<any>();
    expect(actions.results.map((r: any) => r.action)).toEqual(["member.joined", "session.opened", "session.opened"]);
  });

  it("refuses an unknown passkey, a removed member's passkey and an expired challenge", async () => {
    const stranger = await softwarePasskey();
    expect((await signInWith(stranger, newClientAddress())).verified.status).toBe(400);

    const org = await createOrganisation("lender");
    const { token, email } = await invite(org.id, "member");
    const { passkey } = await registerThroughInvitation(token);
    const options = await portalJson("/sign-in/options", {}, { "CF-Connecting-IP": newClientAddress() });
    await env.DB.prepare("update portal_challenges set expires_at = ? where id = ?").bind(Math.floor(Date.now() / 1000) - 1, options.body.challenge_id).run();
    const late = await portalJson("/sign-in/verify", { challenge_id: options.body.challenge_id, response: await passkey.authenticate(options.body.options, PRODUCTION) }, { "CF-Connecting-IP": newClientAddress() });
    expect(late.status).toBe(400);

    await env.DB.prepare("update portal_members set removed_at = ? where organisation_id = ? and email = ?").bind(new Date().toISOString(), org.id, email).run();
    expect((await signInWith(passkey, newClientAddress())).verified.status).toBe(400);
  });

  it("limits sign-in attempts per address with 429 and Retry-After", async () => {
    const address = newClientAddress();
    const stranger = await softwarePasskey();
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_ADDRESS; i++) expect((await signInWith(stranger, address)).verified.status).toBe(400);
    const limited = await signInWith(stranger, address);
    expect(limited.verified.status).toBe(429);
    expect(limited.verified.body.error.code).toBe("rate_limited");
    expect(Number(limited.verified.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await signInWith(stranger, newClientAddress())).verified.status).toBe(400);
  });

  it("limits the sign-in challenges one address may ask for", async () => {
    const address = newClientAddress();
    for (let i = 0; i < SIGN_IN_CHALLENGES_PER_ADDRESS; i++) expect((await portalJson("/sign-in/options", {}, { "CF-Connecting-IP": address })).status).toBe(200);
    const limited = await portalJson("/sign-in/options", {}, { "CF-Connecting-IP": address });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    // A hang guard, not a timing check: 61 sequential ceremonies took over 60 s on a loaded 2-core machine.
  }, 180_000);

  it("limits sign-in attempts per account, whatever the address", async () => {
    const org = await createOrganisation("partner");
    const { token } = await invite(org.id);
    const { passkey } = await registerThroughInvitation(token);
    expect((await signInWith(passkey, newClientAddress())).verified.status).toBe(200);
    // Attempts with a spent counter are refused, and each counts against the account.
    for (let i = 1; i < SIGN_IN_ATTEMPTS_PER_ACCOUNT; i++) expect((await signInWith(passkey, newClientAddress(), { counter: 1 })).verified.status).toBe(400);
    const limited = await signInWith(passkey, newClientAddress());
    expect(limited.verified.status).toBe(429);
    expect(limited.verified.headers.get("Retry-After")).toBeTruthy();
    expect(limited.cookie).toBeNull();
  });
});
