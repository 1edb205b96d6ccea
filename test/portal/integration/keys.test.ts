import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation, expectProblem, issueKey } from "../../helpers/seed";
import { auditOf, KEY_PATTERN, shownSecret } from "./support";

const keyCount = async (organisationId: string) =>
  (await env.DB.prepare("select count(*) as n from api_keys where organisation_id = ?").bind(organisationId).first<{ n: number }>())!.n;

describe("portal API keys", () => {
  it("creates a partner key shown once, in the post's answer only, and the key works on the API", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);

    const created = await portal("POST", "/keys", { session, form: { type: "secret" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("Cache-Control")).toBe("no-store");
    expect(created.location).toBeNull();
    const key = shownSecret(created.text)!;
    expect(key).toMatch(/^rfs_ptr_sandbox_[a-z0-9]{16}_[a-z0-9]{40}$/);
    expect(created.text.match(KEY_PATTERN)).toEqual([key]);

    const me = await call("GET", "/partner/v1/me", { key });
    expect(me.status).toBe(200);
    expect(me.body.organisation.id).toBe(org.id);

    const clientId = key.slice(0, key.lastIndexOf("_"));
    const list = await portal("GET", "/keys", { session });
    expect(list.status).toBe(200);
    expect(list.text).toContain(clientId);
    expect(list.text).not.toContain(key);
    expect(list.text.match(KEY_PATTERN)).toBeNull();
    expect(await auditOf(org.id)).toEqual([{ action: "key.created", target: clientId, environment: "sandbox", member_id: session.memberId }]);
  });

  it("revokes a key at once: the very next API request with it is 401, and the page shows when", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const key = shownSecret((await portal("POST", "/keys", { session, form: { type: "secret" } })).text)!;
    const clientId = key.slice(0, key.lastIndexOf("_"));
    // The key's object has admitted it once, so it holds the key when the revocation arrives.
    expect((await call("GET", "/partner/v1/me", { key })).status).toBe(200);

    // The list's Revoke leads to the question; its form carries the confirmation.
    expect((await portal("GET", "/keys", { session })).text).toContain(`href="/portal/keys/${clientId}/revoke"`);
    const question = await portal("GET", `/keys/${clientId}/revoke`, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain('<input type="hidden" name="confirmed" value="yes"/>');
    const revoked = await portal("POST", `/keys/${clientId}/revoke`, { session, form: { confirmed: "yes" } });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe("/portal/keys");
    expectProblem(await call("GET", "/partner/v1/me", { key }), 401, "unauthorized");

    const list = await portal("GET", "/keys?notice=key-revoked", { session });
    expect(list.text).toContain("The key is revoked");
    expect(list.text).not.toContain(`/keys/${clientId}/revoke`);
    expect((await portal("POST", `/keys/${clientId}/revoke`, { session, form: { confirmed: "yes" } })).status).toBe(404);
    expect((await auditOf(org.id)).map((a) => [a.action, a.target])).toEqual([
      ["key.created", clientId],
      ["key.revoked", clientId],
    ]);
  });

  it("lists only the picked environment's keys, and creates keys in it whatever the form says", async () => {
    const org = await createOrganisation("partner");
    const other = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const live = await issueKey(org.id, "live");
    const sandbox = await issueKey(org.id, "sandbox");
    const stranger = await issueKey(other.id, "sandbox");

    const page = (await portal("GET", "/keys", { session })).text;
    expect(page).toContain(sandbox.client_id);
    expect(page).not.toContain(live.client_id);
    expect(page).not.toContain(stranger.client_id);

    // No mass assignment: the organisation and environment are the member's, never the form's.
    const created = await portal("POST", "/keys", { session, form: { type: "secret", environment: "live", organisation_id: other.id } });
    expect(created.status).toBe(201);
    expect(shownSecret(created.text)).toMatch(/^rfs_ptr_sandbox_/);
    expect(await keyCount(other.id)).toBe(1);

    expect((await portal("POST", "/environment", { session, form: { environment: "live" } })).status).toBe(303);
    const livePage = (await portal("GET", "/keys", { session })).text;
    expect(livePage).toContain(live.client_id);
    expect(livePage).not.toContain(sandbox.client_id);
  });

  it("answers 404 to revoking another organisation's key or the other environment's, and leaves the key working", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const stranger = await issueKey((await createOrganisation("partner")).id, "sandbox");
    const ownLive = await issueKey(org.id, "live");
    for (const target of [stranger, ownLive]) {
      const res = await portal("POST", `/keys/${target.client_id}/revoke`, { session, form: { confirmed: "yes" } });
      expect(res.status).toBe(404);
      expect(res.text).toContain("Not found");
      expect((await call("GET", "/partner/v1/me", { key: target.key })).status).toBe(200);
    }
    expect((await portal("POST", "/keys/rfs_ptr_sandbox_0000000000000000/revoke", { session, form: { confirmed: "yes" } })).status).toBe(404);
    expect(await auditOf(org.id)).toEqual([]);
  });

  it("creates a publishable key with its allowed origins, and refuses a bad origin beside the field with nothing written", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);

    const bad = await portal("POST", "/keys", { session, form: { type: "publishable", allowed_origins: "https://ok.example\nhttps://shop.example/path" } });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/<span class="field-error" id="allowed_origins-error" role="alert">Enter each origin like https:\/\/www\.example\.com \(no path\)\./);
    expect(bad.text).toContain('aria-describedby="allowed_origins-error"');
    // What was typed is put back.
    expect(bad.text).toContain("https://shop.example/path</textarea>");
    expect(await keyCount(org.id)).toBe(0);

    const secretWithOrigins = await portal("POST", "/keys", { session, form: { type: "secret", allowed_origins: "https://ok.example" } });
    expect(secretWithOrigins.status).toBe(400);
    expect(secretWithOrigins.text).toContain('id="allowed_origins-error"');
    expect((await portal("POST", "/keys", { session, form: { type: "root" } })).text).toContain('id="type-error"');
    expect(await keyCount(org.id)).toBe(0);
    expect(await auditOf(org.id)).toEqual([]);

    const created = await portal("POST", "/keys", { session, form: { type: "publishable", allowed_origins: "https://ok.example, https://www.ok.example" } });
    expect(created.status).toBe(201);
    expect(shownSecret(created.text)).toMatch(/^rfs_pub_sandbox_/);
    expect((await portal("GET", "/keys", { session })).text).toContain("Origins: https://ok.example, https://www.ok.example");
  });

  it("gives a lender secret lender keys that work on the lender API, and refuses a publishable one", async () => {
    const org = await createOrganisation("lender");
    const session = await signedInMember(org.id);
    const page = await portal("GET", "/keys", { session });
    expect(page.text).toContain("Lender keys are secret keys");
    expect(page.text).not.toContain('name="allowed_origins"');

    const refused = await portal("POST", "/keys", { session, form: { type: "publishable" } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Lender organisations hold secret keys only.");

    const created = await portal("POST", "/keys", { session, form: {} });
    expect(created.status).toBe(201);
    const key = shownSecret(created.text)!;
    expect(key).toMatch(/^rfs_lnd_sandbox_/);
    expect((await call("GET", "/v1/me", { key })).status).toBe(200);
  });

  it("is 404 for a member who is not an admin, and writes nothing", async () => {
    const org = await createOrganisation("partner");
    const admin = await signedInMember(org.id);
    const key = shownSecret((await portal("POST", "/keys", { session: admin, form: {} })).text)!;
    const member = await signedInMember(org.id, "member");
    expect((await portal("GET", "/keys", { session: member })).status).toBe(404);
    expect((await portal("POST", "/keys", { session: member, form: { type: "secret" } })).status).toBe(404);
    expect((await portal("POST", `/keys/${key.slice(0, key.lastIndexOf("_"))}/revoke`, { session: member, form: {} })).status).toBe(404);
    expect(await keyCount(org.id)).toBe(1);
    expect((await call("GET", "/partner/v1/me", { key })).status).toBe(200);
    expect((await portal("GET", "/", { session: member })).text).not.toContain('href="/portal/keys"');
  });
});
