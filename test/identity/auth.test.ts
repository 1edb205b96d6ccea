import { describe, expect, it } from "vitest";
import { admin, call, SANDBOX } from "../helpers/api";
import { createOrganisation, expectProblem, issueKey, lenderWithKeys, partnerWithKeys } from "../helpers/seed";

const token = async (key: { key: string; client_id: string }) =>
  (
    await call("POST", "/partner/v1/oauth/token", {
      body: { grant_type: "client_credentials", client_id: key.client_id, client_secret: key.key },
    })
  ).body.access_token as string;

describe("partner API authentication", () => {
  it("accepts X-API-Key and reports the key's environment", async () => {
    const { organisation, live } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/me", { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      organisation: { id: organisation.id, kind: "partner" },
      environment: "live",
      livemode: true,
      key: { client_id: live.client_id, type: "secret" },
      authenticated_with: "api_key",
      host: "production",
    });
  });

  it.each([
    ["no credentials", {}],
    ["a malformed key", { "X-API-Key": "not-a-key" }],
    ["an unknown key", { "X-API-Key": `rfs_ptr_live_${"a".repeat(16)}_${"b".repeat(40)}` }],
    ["a malformed Authorization header", { Authorization: "Basic abc" }],
    ["an unknown bearer token", { Authorization: `Bearer rfs_at_${"c".repeat(48)}` }],
  ])("answers %s with 401 unauthorized", async (_label, headers) => {
    expectProblem(await call("GET", "/partner/v1/me", { headers }), 401, "unauthorized");
  });

  it("refuses a key whose secret part was altered", async () => {
    const { live } = await partnerWithKeys();
    const altered = live.key.slice(0, -1) + (live.key.endsWith("a") ? "b" : "a");
    expectProblem(await call("GET", "/partner/v1/me", { key: altered }), 401, "unauthorized");
  });

  it("refuses a revoked key on the very next request", async () => {
    const { live } = await partnerWithKeys();
    expect((await call("GET", "/partner/v1/me", { key: live.key })).status).toBe(200);
    expect((await admin("DELETE", `/keys/${live.client_id}`)).status).toBe(204);
    expectProblem(await call("GET", "/partner/v1/me", { key: live.key }), 401, "unauthorized");
    expectProblem(await admin("DELETE", `/keys/${live.client_id}`), 404, "not_found");
  });

  it("refuses a lender key with 403 wrong_key_type", async () => {
    const lender = await lenderWithKeys();
    expectProblem(await call("GET", "/partner/v1/me", { key: lender.live.key }), 403, "wrong_key_type");
  });

  it("lets publishable keys reach the enum lists only", async () => {
    const partner = await createOrganisation("partner");
    const publishable = await issueKey(partner.id, "live", "publishable", ["https://shop.example"]);
    expect(publishable.key.startsWith("rfs_pub_live_")).toBe(true);
    expect((await call("GET", "/partner/v1/enums/industries", { key: publishable.key })).status).toBe(200);
    expectProblem(await call("GET", "/partner/v1/me", { key: publishable.key }), 403, "wrong_key_type");
  });
});

describe("lender API authentication", () => {
  it("accepts a lender X-API-Key", async () => {
    const lender = await lenderWithKeys();
    const res = await call("GET", "/v1/me", { key: lender.sandbox.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organisation: { kind: "lender" }, environment: "sandbox" });
  });

  it("refuses a partner key with 403 wrong_key_type", async () => {
    const partner = await partnerWithKeys();
    expectProblem(await call("GET", "/v1/me", { key: partner.live.key }), 403, "wrong_key_type");
  });

  it("does not take bearer tokens", async () => {
    const partner = await partnerWithKeys();
    expectProblem(await call("GET", "/v1/me", { token: await token(partner.sandbox) }), 401, "unauthorized");
  });
});

describe("environments", () => {
  it("uses distinct prefixes per kind and environment", async () => {
    const partner = await partnerWithKeys();
    const lender = await lenderWithKeys();
    expect(partner.sandbox.key).toMatch(/^rfs_ptr_sandbox_[a-z0-9]{16}_[a-z0-9]{40}$/);
    expect(partner.live.key).toMatch(/^rfs_ptr_live_/);
    expect(lender.sandbox.key).toMatch(/^rfs_lnd_sandbox_/);
    expect(lender.live.key).toMatch(/^rfs_lnd_live_/);
    expect(partner.live.key.startsWith(`${partner.live.client_id}_`)).toBe(true);
  });

  it("refuses live keys on a sandbox host and accepts sandbox keys there", async () => {
    const partner = await partnerWithKeys();
    const lender = await lenderWithKeys();
    expectProblem(await call("GET", "/partner/v1/me", { key: partner.live.key, host: SANDBOX }), 403, "environment_mismatch");
    expectProblem(await call("GET", "/v1/me", { key: lender.live.key, host: SANDBOX }), 403, "environment_mismatch");
    expectProblem(await call("GET", "/partner/v1/me", { key: partner.live.key, host: "http://127.0.0.1" }), 403, "environment_mismatch");
    const sandbox = await call("GET", "/partner/v1/me", { key: partner.sandbox.key, host: SANDBOX });
    expect(sandbox.status).toBe(200);
    expect(sandbox.body).toMatchObject({ environment: "sandbox", host: "sandbox" });
  });

  it("lets the production host take both kinds of key", async () => {
    const partner = await partnerWithKeys();
    expect((await call("GET", "/partner/v1/me", { key: partner.sandbox.key })).body.environment).toBe("sandbox");
    expect((await call("GET", "/partner/v1/me", { key: partner.live.key })).body.environment).toBe("live");
  });
});
