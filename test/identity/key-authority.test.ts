import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateKey } from "../../src/domain/identity/keys";
import { sha256Hex } from "../../src/lib/crypto";
import { admin, call } from "../helpers/api";
import { createOrganisation, expectProblem, partnerWithKeys } from "../helpers/seed";

const keyObject = (clientId: string) => env.KEY_AUTHORITY.get(env.KEY_AUTHORITY.idFromName(`key:${clientId}`));

async function tokenFor(key: { key: string; client_id: string }) {
  const res = await call("POST", "/partner/v1/oauth/token", { body: { grant_type: "client_credentials", client_id: key.client_id, client_secret: key.key } });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

describe("the key's Durable Object as the authority for the key", () => {
  it("loads a key it has never seen from D1 on first use (cold start)", async () => {
    // Written straight to D1, as a restore or another deployment would: the object has never heard of it.
    const organisation = await createOrganisation("partner");
    const { keyId, clientId, key } = generateKey("partner", "live");
    await env.DB.prepare("INSERT INTO api_keys (id, client_id, organisation_id, environment, kind, key_hash, allowed_origins, created_at) VALUES (?, ?, ?, 'live', 'partner', ?, '[]', ?)")
      .bind(keyId, clientId, organisation.id, await sha256Hex(key), new Date().toISOString())
      .run();
    const res = await call("GET", "/partner/v1/me", { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organisation: { id: organisation.id }, key: { client_id: clientId }, environment: "live" });
  });

  it("refuses the key and its tokens on the very next request after revocation, with the object warm", async () => {
    const { sandbox } = await partnerWithKeys();
    const token = await tokenFor(sandbox);
    for (let i = 0; i < 3; i++) {
      expect((await call("GET", "/partner/v1/me", { key: sandbox.key })).status).toBe(200);
      expect((await call("GET", "/partner/v1/me", { token })).status).toBe(200);
    }
    expect((await admin("DELETE", `/keys/${sandbox.client_id}`)).status).toBe(204);
    expectProblem(await call("GET", "/partner/v1/me", { token }), 401, "unauthorized");
    expectProblem(await call("GET", "/partner/v1/me", { key: sandbox.key }), 401, "unauthorized");
    // And no new token can be minted from it.
    const minted = await call("POST", "/partner/v1/oauth/token", {
      body: { grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key },
    });
    expectProblem(minted, 401, "unauthorized");
  });

  it("keeps a revocation written to D1 across the object's restart: D1 is the record", async () => {
    const { live } = await partnerWithKeys();
    expect((await call("GET", "/partner/v1/me", { key: live.key })).status).toBe(200);
    expect((await admin("DELETE", `/keys/${live.client_id}`)).status).toBe(204);
    await keyObject(live.client_id).forget(); // what an eviction does to the object's memory
    expectProblem(await call("GET", "/partner/v1/me", { key: live.key }), 401, "unauthorized");
  });

  it("reloads live tokens from D1 after a restart, so a token outlives the object's memory but not the key", async () => {
    const { sandbox } = await partnerWithKeys();
    const token = await tokenFor(sandbox);
    await keyObject(sandbox.client_id).forget();
    expect((await call("GET", "/partner/v1/me", { token })).status).toBe(200);
  });

  it("admits a token only at the key it names", async () => {
    const first = await partnerWithKeys();
    const second = await partnerWithKeys();
    const token = await tokenFor(first.sandbox);
    const secondKeyId = second.sandbox.client_id.slice("rfs_ptr_sandbox_".length);
    const rerouted = token.replace(/^rfs_at_sandbox_[a-z0-9]{16}_/, `rfs_at_sandbox_${secondKeyId}_`);
    expect((await call("GET", "/partner/v1/me", { token: rerouted })).status).toBe(401);
    // The same token with another environment names another object, which holds no such key.
    expect((await call("GET", "/partner/v1/me", { token: token.replace("rfs_at_sandbox_", "rfs_at_live_") })).status).toBe(401);
    expect((await call("GET", "/partner/v1/me", { token })).status).toBe(200);
  });

  it("answers for its own key only: a client id that does not own the key id finds nothing", async () => {
    const { live } = await partnerWithKeys();
    const keyId = live.client_id.slice("rfs_ptr_live_".length);
    const admission = await keyObject(live.client_id).authenticate(
      { keyId, clientId: `rfs_ptr_sandbox_${keyId}` },
      { keyHash: await sha256Hex(live.key) },
      { limit: 120, windowSeconds: 60 },
    );
    expect(admission).toEqual({ admitted: false });
    const own = await keyObject(live.client_id).authenticate({ keyId, clientId: live.client_id }, { keyHash: await sha256Hex(live.key) }, { limit: 120, windowSeconds: 60 });
    expect(own).toMatchObject({ admitted: true, key: { clientId: live.client_id, kind: "partner", environment: "live" } });
    // The hash never leaves the object.
    expect(JSON.stringify(own)).not.toContain(await sha256Hex(live.key));
  });
});
