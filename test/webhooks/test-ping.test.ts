import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { base, deliveries, dispatch, endpoint, receiverBucket, register, settleOutbox, type Api } from "./support/webhooks";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

async function endpointOf(api: Api, behaviour = "ok", extra: Record<string, unknown> = {}) {
  const { organisation, live, sandbox } = api === "partner" ? await partnerWithKeys() : await lenderWithKeys();
  const receiver = receiverBucket();
  const registered = await register(api, live.key, { url: receiver.url(behaviour), ...extra });
  await receiver.trust(registered.secret);
  return { organisation, key: live.key, sandboxKey: sandbox.key, receiver, endpointId: registered.id, secret: registered.secret };
}

describe.each(["partner", "lender"] as const)("POST %s …/webhooks/{id}/test", (api) => {
  it("sends a signed ping inline, whatever the events filter, and answers with the recorded delivery", async () => {
    const events = api === "partner" ? ["lead.funded"] : ["deal.created"];
    const { key, receiver, endpointId } = await endpointOf(api, "ok", { events, payload: "reference" });

    const res = await call("POST", `${base(api)}/webhooks/${endpointId}/test`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event: "ping", payload: "reference", state: "succeeded", attempt_count: 0, last_status_code: 200, next_attempt_at: null });
    expect(res.body.attempts).toEqual([expect.objectContaining({ attempt_number: null, trigger: "manual", status_code: 200, error: null })]);

    const [received] = await receiver.records();
    expect(received.verified).toEqual([{ plain: true, timestamped: true, stripe: true, standard: true }]);
    expect(received.headers).toMatchObject({ "x-service-event": "ping", "x-service-delivery": res.body.id, "x-service-payload": "reference", "webhook-id": res.body.event_id });
    expect(JSON.parse(received.body)).toEqual({
      id: res.body.event_id,
      event: "ping",
      created_at: expect.any(String),
      environment: "live",
      livemode: true,
      api_version: "2026-09",
      data: { endpoint_id: endpointId, url: expect.stringContaining("/ok"), events, message: expect.any(String), payload_mode: "reference" },
    });

    const [listed] = await deliveries(api, key, endpointId);
    expect(listed).toEqual(res.body);
    expect((await endpoint(api, key, endpointId)).last_success_at).toEqual(expect.any(String));
    // Never in the outbox: no event to list, nothing for the dispatcher to send.
    expect((await call("GET", `${base(api)}/events`, { key })).body.events.map((e: { event: string }) => e.event)).not.toContain("ping");
    expect((await dispatch()).deliveryIds.filter((id) => id === res.body.id)).toEqual([]);
  });

  it("answers 200 with the failed attempt when the receiver refuses, counts the failure and never retries", async () => {
    const { key, receiver, endpointId } = await endpointOf(api, "status-500");
    const res = await call("POST", `${base(api)}/webhooks/${endpointId}/test`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event: "ping", state: "exhausted", last_status_code: 500, next_attempt_at: null });
    expect(res.body.attempts).toEqual([expect.objectContaining({ status_code: 500, error: "http_500" })]);
    expect(await receiver.records()).toHaveLength(1);
    const after = await endpoint(api, key, endpointId);
    expect(after).toMatchObject({ active: true, failure_count: 1 });
  });

  it("deactivates the endpoint on 410 Gone, as any attempt does", async () => {
    const { key, endpointId } = await endpointOf(api, "status-410");
    const res = await call("POST", `${base(api)}/webhooks/${endpointId}/test`, { key });
    expect(res.body).toMatchObject({ state: "cancelled", last_status_code: 410 });
    expect(await endpoint(api, key, endpointId)).toMatchObject({ active: false, deactivated_reason: "gone" });
  });

  it("refuses a deactivated endpoint with 409 conflict and sends nothing", async () => {
    const { key, receiver, endpointId } = await endpointOf(api);
    expect((await call("PATCH", `${base(api)}/webhooks/${endpointId}`, { key, body: { active: false } })).status).toBe(200);
    expectProblem(await call("POST", `${base(api)}/webhooks/${endpointId}/test`, { key }), 409, "conflict");
    expect(await receiver.records()).toEqual([]);
  });

  it("is 404 for another organisation's endpoint, another environment's and an unknown id", async () => {
    const { endpointId, sandboxKey, receiver } = await endpointOf(api);
    const stranger = api === "partner" ? await partnerWithKeys() : await lenderWithKeys();
    expectProblem(await call("POST", `${base(api)}/webhooks/${endpointId}/test`, { key: stranger.live.key }), 404, "not_found");
    expectProblem(await call("POST", `${base(api)}/webhooks/${endpointId}/test`, { key: sandboxKey }), 404, "not_found");
    expectProblem(await call("POST", `${base(api)}/webhooks/whe_unknown/test`, { key: stranger.live.key }), 404, "not_found");
    expect(await receiver.records()).toEqual([]);
  });

  it("is 404 from the other API: a partner key cannot ping a lender endpoint and the reverse", async () => {
    const { endpointId } = await endpointOf(api);
    const other = api === "partner" ? await lenderWithKeys() : await partnerWithKeys();
    const otherBase = base(api === "partner" ? "lender" : "partner");
    expectProblem(await call("POST", `${otherBase}/webhooks/${endpointId}/test`, { key: other.live.key }), 404, "not_found");
  });
});

describe("ping is not a subscribable event", () => {
  it("refuses events: [\"ping\"] naming the field", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/webhooks", { key: live.key, body: { url: receiverBucket().url(), events: ["ping"] } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("events.0");
    expect(res.body.error.message).toContain("POST /webhooks/{id}/test");
  });
});
