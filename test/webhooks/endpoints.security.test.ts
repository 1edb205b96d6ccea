import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { receiverBucket, register } from "./support/webhooks";

const operations = (id: string): [string, string, unknown?][] => [
  ["GET", `/webhooks/${id}`],
  ["PATCH", `/webhooks/${id}`, { active: false }],
  ["DELETE", `/webhooks/${id}`],
  ["POST", `/webhooks/${id}/rotate-secret`],
  ["GET", `/webhooks/${id}/deliveries`],
  ["POST", `/webhooks/${id}/deliveries/whd_nothing/retry`],
];

describe("webhook endpoints belong to one organisation, environment and API", () => {
  it("answers 404 for another lender's endpoint, on every operation", async () => {
    const owner = await lenderWithKeys();
    const other = await lenderWithKeys();
    const { id } = await register("lender", owner.live.key, { url: receiverBucket().url() });
    for (const [method, path, body] of operations(id)) {
      expectProblem(await call(method, `/v1${path}`, { key: other.live.key, body }), 404, "not_found");
    }
    expect((await call("GET", "/v1/webhooks", { key: other.live.key })).body.webhooks).toEqual([]);
    expect((await call("GET", `/v1/webhooks/${id}`, { key: owner.live.key })).status).toBe(200);
  });

  it("answers 404 for the same organisation's endpoint of the other environment", async () => {
    const owner = await partnerWithKeys();
    const { id } = await register("partner", owner.live.key, { url: receiverBucket().url() });
    for (const [method, path, body] of operations(id)) {
      expectProblem(await call(method, `/partner/v1${path}`, { key: owner.sandbox.key, body }), 404, "not_found");
    }
  });

  it("answers 404 for a partner endpoint read through the lender API and the other way round", async () => {
    const partner = await partnerWithKeys();
    const lender = await lenderWithKeys();
    const partnerEndpoint = await register("partner", partner.live.key, { url: receiverBucket().url() });
    const lenderEndpoint = await register("lender", lender.live.key, { url: receiverBucket().url() });
    expectProblem(await call("GET", `/v1/webhooks/${partnerEndpoint.id}`, { key: lender.live.key }), 404, "not_found");
    expectProblem(await call("GET", `/partner/v1/webhooks/${lenderEndpoint.id}`, { key: partner.live.key }), 404, "not_found");
  });

  it("answers 404 for a delivery id that is not the endpoint's", async () => {
    const owner = await lenderWithKeys();
    const { id } = await register("lender", owner.live.key, { url: receiverBucket().url() });
    expectProblem(await call("POST", `/v1/webhooks/${id}/deliveries/whd_unknown/retry`, { key: owner.live.key }), 404, "not_found");
  });
});
