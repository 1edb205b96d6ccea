/**
 * Issue 23 item 4 (members): a signed-in member adds a second passkey (a registration ceremony
 * while signed in), sees their passkeys, removes one after confirming; the last one stays.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PRODUCTION } from "../../helpers/api";
import { freshFormToken, portal, signedInMember, type PortalSession } from "../../helpers/portal";
import { portalJson, signInWith } from "../../helpers/portal-ceremony";
import { createOrganisation } from "../../helpers/seed";
import { softwarePasskey } from "../../helpers/software-authenticator";

const auditActions = async (organisationId: string) =>
  (await env.DB.prepare("select action from portal_audit_log where organisation_id = ? order by at, rowid").bind(organisationId).all<any>()).results.map((r: any) => r.action);
const address = () => `192.0.2.${10 + Math.floor(Math.random() * 200)}`;

async function addPasskey(session: PortalSession) {
  const key = await softwarePasskey();
  const headers = { Cookie: session.cookie, "X-Form-Token": await freshFormToken(session) };
  const options = await portalJson("/passkeys/options", {}, headers);
  expect(options.status).toBe(200);
  const verified = await portalJson("/passkeys/verify", { challenge_id: options.body.challenge_id, response: await key.register(options.body.options, PRODUCTION) }, headers);
  return { key, verified, options };
}

describe("a member's own passkeys", () => {
  it("adds a second passkey while signed in, lists both, removes one after confirming; both sign in until then", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "member");
    const first = await addPasskey(session);
    expect(first.verified.status).toBe(200);
    expect(first.verified.body).toEqual({ redirect: "/portal/passkeys?notice=added" });
    const second = await addPasskey(session);
    expect(second.verified.status).toBe(200);
    // The authenticator already holding one is asked for no second (excludeCredentials).
    expect(second.options.body.options.excludeCredentials.map((c: any) => c.id)).toEqual([first.key.credentialId]);

    const page = await portal("GET", "/passkeys", { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`…${first.key.credentialId.slice(-6)}`);
    expect(page.text).toContain(`href="/portal/passkeys/${second.key.credentialId}/remove"`);
    expect((await signInWith(first.key, address())).verified.status).toBe(200);
    expect((await signInWith(second.key, address())).verified.status).toBe(200);

    const question = await portal("GET", `/passkeys/${first.key.credentialId}/remove`, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain("This cannot be undone.");
    const removed = await portal("POST", `/passkeys/${first.key.credentialId}/remove`, { session, form: {} });
    expect(removed.status).toBe(303);
    expect((await signInWith(first.key, address())).verified.status).toBe(400);
    expect((await signInWith(second.key, address())).verified.status).toBe(200);
    expect((await auditActions(org.id)).filter((a) => a !== "session.opened")).toEqual(["passkey.added", "passkey.added", "passkey.removed"]);

    // The last one stays: refused with the reason, nothing written.
    const last = await portal("POST", `/passkeys/${second.key.credentialId}/remove`, { session, form: {} });
    expect(last.status).toBe(409);
    expect(last.text).toContain("only passkey");
    expect((await portal("GET", "/passkeys", { session })).text).toContain("Your only passkey");
    expect((await signInWith(second.key, address())).verified.status).toBe(200);
  });

  it("answers 404 for another member's passkey and refuses a ceremony without the page's form token or with another member's challenge", async () => {
    const org = await createOrganisation("lender");
    const owner = await signedInMember(org.id, "admin");
    const other = await signedInMember(org.id, "member");
    const theirs = await addPasskey(owner);
    await addPasskey(owner);
    expect((await portal("GET", `/passkeys/${theirs.key.credentialId}/remove`, { session: other })).status).toBe(404);
    expect((await portal("POST", `/passkeys/${theirs.key.credentialId}/remove`, { session: other, form: {} })).status).toBe(404);
    expect((await portalJson("/passkeys/options", {}, { Cookie: other.cookie })).status).toBe(403);
    // A challenge issued to the owner does not answer the other member's ceremony.
    const options = await portalJson("/passkeys/options", {}, { Cookie: owner.cookie, "X-Form-Token": await freshFormToken(owner) });
    const key = await softwarePasskey();
    const crossed = await portalJson("/passkeys/verify", { challenge_id: options.body.challenge_id, response: await key.register(options.body.options, PRODUCTION) }, { Cookie: other.cookie, "X-Form-Token": await freshFormToken(other) });
    expect(crossed.status).toBe(400);
    const count = await env.DB.prepare("select count(*) as n from portal_passkeys where member_id = ?").bind(other.memberId).first<{ n: number }>();
    expect(count!.n).toBe(0);
  });
});
