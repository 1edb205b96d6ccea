import { describe, expect, it } from "vitest";
import { ENDPOINTS_PER_ACCOUNT } from "../../src/services/webhooks/endpoints";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { receiverBucket, register } from "./support/webhooks";

describe("webhook endpoints per account", () => {
  it(`refuses endpoint ${ENDPOINTS_PER_ACCOUNT + 1} with 422 cap_exceeded, counting only live endpoints of that API and environment`, async () => {
    const { live, sandbox } = await lenderWithKeys();
    const url = receiverBucket().url();
    const made = [];
    for (let i = 0; i < ENDPOINTS_PER_ACCOUNT; i++) made.push(await register("lender", live.key, { url }));

    const refused = await call("POST", "/v1/webhooks", { key: live.key, body: { url } });
    expectProblem(refused, 422, "cap_exceeded");
    expect(refused.body.limit).toBe(ENDPOINTS_PER_ACCOUNT);
    expect(refused.body.current).toBe(ENDPOINTS_PER_ACCOUNT);

    // The other environment has its own allowance.
    expect((await call("POST", "/v1/webhooks", { key: sandbox.key, body: { url } })).status).toBe(201);

    // A deleted endpoint frees its place.
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
