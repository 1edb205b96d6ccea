import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ENDPOINTS_PER_ACCOUNT } from "../../src/services/webhooks/endpoints";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { receiverBucket, register } from "./support/webhooks";

describe("webhook endpoints per account", () => {
  it(`refuses endpoint ${ENDPOINTS_PER_ACCOUNT + 1} with 422 cap_exceeded, counting only live endpoints of that API and environment`, async () => {
    const { organisation, live, sandbox } = await lenderWithKeys();
    const url = receiverBucket().url();
    const made = [];
    for (let i = 0; i < ENDPOINTS_PER_ACCOUNT; i++) made.push(await register("lender", live.key, { url }));

    const refused = await call("POST", "/v1/webhooks", { key: live.key, body: { url } });
    expectProblem(refused, 422, "cap_exceeded");
    expect(refused.body.limit).toBe(ENDPOINTS_PER_ACCOUNT);
    expect(refused.body.current).toBe(ENDPOINTS_PER_ACCOUNT);

    // The other environment has its own allowance.
    expect((await call("POST", "/v1/webhooks", { key: sandbox.key, body: { url } })).status).toBe(201);

    // The same account's endpoints on the other API do not count: a full set of partner-API rows for this
    // organisation (a lender holds no partner key, so they are written as a partner registration writes them).
    const { meta } = await env.DB.prepare(
      `INSERT INTO webhook_endpoints (id, organisation_id, environment, api, host_kind, url, events, payload_mode, active, secret_sealed, created_at, updated_at)
       SELECT id || '_partner', organisation_id, environment, 'partner', host_kind, url, events, payload_mode, active, secret_sealed, created_at, updated_at
       FROM webhook_endpoints WHERE organisation_id = ? AND environment = 'live' AND api = 'lender'`,
    )
      .bind(organisation.id)
      .run();
    expect(meta.changes).toBe(ENDPOINTS_PER_ACCOUNT);
    expect((await call("POST", "/v1/webhooks", { key: live.key, body: { url } })).body.current).toBe(ENDPOINTS_PER_ACCOUNT);

    // A deleted endpoint frees its place, though the partner API holds a full set.
    expect((await call("DELETE", `/v1/webhooks/${made[0].id}`, { key: live.key })).status).toBe(204);
    expect((await call("POST", "/v1/webhooks", { key: live.key, body: { url } })).status).toBe(201);
  });

  it("holds the cap under parallel registrations", async () => {
    const { live } = await lenderWithKeys();
    const url = receiverBucket().url();
    const results = await Promise.all(Array.from({ length: ENDPOINTS_PER_ACCOUNT + 4 }, () => call("POST", "/v1/webhooks", { key: live.key, body: { url } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(ENDPOINTS_PER_ACCOUNT);
    for (const r of results.filter((r) => r.status !== 201)) expectProblem(r, 422, "cap_exceeded");
    expect((await call("GET", "/v1/webhooks", { key: live.key })).body.webhooks).toHaveLength(ENDPOINTS_PER_ACCOUNT);
  });
});
