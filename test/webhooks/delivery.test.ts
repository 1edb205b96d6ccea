import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { pruneExpiredHistory } from "../../src/services/retention/retention";
import { bodyKey, forgetCachedBodies } from "../../src/services/webhooks/bodies";
import { testDeps } from "../helpers/deps";
import { call } from "../helpers/api";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { consume, deliveries, dispatch, endpoint, makeDue, receiverBucket, register, setDns, settleOutbox, writeEvent } from "./support/webhooks";
import { inData } from "../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

async function lenderEndpoint(behaviour = "ok", extra: Record<string, unknown> = {}, query = "") {
  const { organisation, live } = await lenderWithKeys();
  const receiver = receiverBucket();
  const registered = await register("lender", live.key, { url: receiver.url(behaviour, query), ...extra });
  await receiver.trust(registered.secret);
  return { organisation, key: live.key, receiver, endpointId: registered.id, secret: registered.secret };
}

const dealUpdated = (organisationId: string, reference = `RF-${crypto.randomUUID().slice(0, 8).toUpperCase()}`) =>
  writeEvent({
    organisationId,
    environment: "live",
    api: "lender",
    event: "deal.updated",
    subjectType: "deal",
    subjectId: reference,
    detail: { update: { status: "funded", reason: null, funded_amount: 25000 } },
  });

describe("webhook delivery", () => {
  it("delivers a signed full payload that node:crypto, stripe and standardwebhooks all verify", async () => {
    const { organisation, key, receiver, endpointId } = await lenderEndpoint();
    const event = await dealUpdated(organisation.id, "RF-ABC123");
    const { deliveryIds } = await dispatch();
    expect(deliveryIds).toHaveLength(1);
    const result = await consume(deliveryIds);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);

    const [received] = await receiver.records();
    expect(received.verified).toEqual([{ plain: true, timestamped: true, stripe: true, standard: true }]);
    expect(received.headers).toMatchObject({
      "content-type": "application/json",
      "x-service-event": "deal.updated",
      "x-service-delivery": deliveryIds[0],
      "x-service-payload": "full",
      "webhook-id": event.id,
    });
    expect(received.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(received.headers["x-service-signature-256"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(received.headers["x-service-timestamp"]).toBe(received.headers["webhook-timestamp"]);
    const body = JSON.parse(received.body);
    expect(body).toEqual({
      id: event.id,
      event: "deal.updated",
      created_at: event.createdAt,
      environment: "live",
      livemode: true,
      api_version: "2026-09",
      data: expect.objectContaining({ reference: "RF-ABC123", update: { status: "funded", reason: null, funded_amount: 25000 }, payload_mode: "full" }),
    });

    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery).toMatchObject({ id: deliveryIds[0], event_id: event.id, state: "succeeded", attempt_count: 1, last_status_code: 200, payload: "full" });
    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt_number: 1, trigger: "automatic", status_code: 200, error: null })]);
    const after = await endpoint("lender", key, endpointId);
    expect(after.last_success_at).toEqual(expect.any(String));
    expect(after.failure_count).toBe(0);
  });

  it("sends partner events in reference mode with the lead id and the event's own detail", async () => {
    const { organisation, live } = await partnerWithKeys();
    const receiver = receiverBucket();
    const { secret } = await register("partner", live.key, { url: receiver.url(), payload: "reference", events: ["lead.matched"] });
    await receiver.trust(secret);
    await writeEvent({ organisationId: organisation.id, environment: "live", api: "partner", event: "lead.submitted", subjectType: "lead", subjectId: "lead-1" });
    await writeEvent({ organisationId: organisation.id, environment: "live", api: "partner", event: "lead.matched", subjectType: "lead", subjectId: "lead-1", detail: { matched_options: 3 } });
    const { deliveryIds } = await dispatch();
    expect(deliveryIds).toHaveLength(1); // not subscribed to lead.submitted
    await consume(deliveryIds);
    const [received] = await receiver.records();
    expect(received.headers["x-service-payload"]).toBe("reference");
    expect(JSON.parse(received.body).data).toEqual({ lead_id: "lead-1", matched_options: 3, payload_mode: "reference" });
    expect(received.verified[0]).toEqual({ plain: true, timestamped: true, stripe: true, standard: true });
  });

  it("only sends to endpoints of the event's organisation, environment and API", async () => {
    const { organisation, live, sandbox } = await lenderWithKeys();
    const liveReceiver = receiverBucket();
    const sandboxReceiver = receiverBucket();
    await register("lender", live.key, { url: liveReceiver.url() });
    await register("lender", sandbox.key, { url: sandboxReceiver.url() });
    const other = await lenderEndpoint();
    await writeEvent({ organisationId: organisation.id, environment: "sandbox", api: "lender", event: "deal.created", subjectType: "deal", subjectId: "RF-T1", test: true });
    const { deliveryIds } = await dispatch();
    expect(deliveryIds).toHaveLength(1);
    await consume(deliveryIds);
    expect(await sandboxReceiver.records()).toHaveLength(1);
    expect(await liveReceiver.records()).toHaveLength(0);
    expect(await other.receiver.records()).toHaveLength(0);
  });

  it("records a 500 as a failure and schedules the retry a minute later", async () => {
    const { organisation, key, endpointId } = await lenderEndpoint("status-500");
    await dealUpdated(organisation.id);
    const { deliveryIds } = await dispatch();
    const result = await consume(deliveryIds);
    expect(result.retryMessages).toEqual([{ msgId: expect.any(String), delaySeconds: 60 }]);
    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery).toMatchObject({ state: "pending", attempt_count: 1, last_status_code: 500 });
    expect(delivery.attempts[0]).toMatchObject({ status_code: 500, error: "http_500" });
    const after = await endpoint("lender", key, endpointId);
    expect(after).toMatchObject({ failure_count: 1, last_success_at: null });
    expect(after.last_failure_at).toEqual(expect.any(String));
  });

  it("records a refused connection as a failure", async () => {
    const { organisation, live } = await lenderWithKeys();
    const { id } = await register("lender", live.key, { url: "http://127.0.0.1:1/closed" });
    await dealUpdated(organisation.id);
    const { deliveryIds } = await dispatch();
    const result = await consume(deliveryIds);
    expect(result.retryMessages[0].delaySeconds).toBe(60);
    const [delivery] = await deliveries("lender", live.key, id);
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^network_error/) });
  });

  it("gives up on a receiver silent for five seconds and records a timeout", { timeout: 20_000 }, async () => {
    const { organisation, key, endpointId } = await lenderEndpoint("sleep-6500");
    await dealUpdated(organisation.id);
    const { deliveryIds } = await dispatch();
    const result = await consume(deliveryIds);
    expect(result.retryMessages[0].delaySeconds).toBe(60);
    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^timeout/) });
  });

  it("waits for a slow receiver that answers within the timeout", { timeout: 20_000 }, async () => {
    const { organisation, key, endpointId } = await lenderEndpoint("sleep-1500");
    await dealUpdated(organisation.id);
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery).toMatchObject({ state: "succeeded", last_status_code: 200 });
  });

  it("re-sends the identical bytes with the same event id after a retry, signed afresh", async () => {
    const { organisation, key, receiver, endpointId } = await lenderEndpoint("status-503");
    await dealUpdated(organisation.id);
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    // The receiver recovers: same endpoint, now answering 200.
    await call("PATCH", `/v1/webhooks/${endpointId}`, { key, body: { url: receiver.url("ok") } });
    await makeDue(deliveryIds[0]);
    const second = await consume(deliveryIds, 2);
    expect(second.explicitAcks).toHaveLength(1);
    const [first, retried] = await receiver.records();
    expect(first.behaviour).toBe("status-503");
    expect(retried.behaviour).toBe("ok");
    expect(retried.body).toBe(first.body);
    expect(retried.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(retried.headers["x-service-delivery"]).toBe(first.headers["x-service-delivery"]);
    expect(JSON.parse(retried.body).id).toBe(JSON.parse(first.body).id);
    expect(retried.verified[0]).toEqual({ plain: true, timestamped: true, stripe: true, standard: true });
    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery).toMatchObject({ state: "succeeded", attempt_count: 2 });
    expect((await endpoint("lender", key, endpointId)).failure_count).toBe(0);
  });

  it("drops a duplicate queue message instead of sending the attempt twice", async () => {
    const { organisation, receiver } = await lenderEndpoint("status-500");
    await dealUpdated(organisation.id);
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const duplicate = await consume(deliveryIds);
    expect(duplicate.explicitAcks).toHaveLength(1);
    expect(await receiver.records()).toHaveLength(1);
  });

  it("signs with both secrets for 24 hours after a rotation", async () => {
    const { organisation, key, receiver, endpointId, secret: old } = await lenderEndpoint();
    const rotated = await call("POST", `/v1/webhooks/${endpointId}/rotate-secret`, { key });
    await receiver.trust(old, rotated.body.secret);
    await dealUpdated(organisation.id);
    await consume((await dispatch()).deliveryIds);
    const [received] = await receiver.records();
    expect(received.headers["x-service-signature-256"]).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(received.headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    // sha256= carries the current secret only.
    expect(received.verified).toEqual([
      { plain: false, timestamped: true, stripe: true, standard: true },
      { plain: true, timestamped: true, stripe: true, standard: true },
    ]);
  });

  it("resolves the host again before sending and refuses a name that now points inside", async () => {
    const name = `rebind-${crypto.randomUUID()}.example.test`;
    await setDns(name, { A: ["93.184.216.34"] });
    const { organisation, live } = await lenderWithKeys();
    const { id } = await register("lender", live.key, { url: `https://${name}/hook` });
    await setDns(name, { A: ["10.0.0.5"] });
    await dealUpdated(organisation.id);
    const result = await consume((await dispatch()).deliveryIds);
    expect(result.retryMessages[0].delaySeconds).toBe(60);
    const [delivery] = await deliveries("lender", live.key, id);
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining("address_refused") });
    expect((await endpoint("lender", live.key, id)).failure_count).toBe(1);
  });

  it("re-sends a delivery by hand", async () => {
    const { organisation, key, receiver, endpointId } = await lenderEndpoint("status-500");
    await dealUpdated(organisation.id);
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    await call("PATCH", `/v1/webhooks/${endpointId}`, { key, body: { url: receiver.url("ok") } });
    const res = await call("POST", `/v1/webhooks/${endpointId}/deliveries/${deliveryIds[0]}/retry`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: deliveryIds[0], state: "succeeded", attempt_count: 1 });
    expect(res.body.attempts).toEqual([
      expect.objectContaining({ attempt_number: 1, trigger: "automatic", status_code: 500 }),
      expect.objectContaining({ attempt_number: null, trigger: "manual", status_code: 200 }),
    ]);
    const records = await receiver.records();
    expect(records[1].body).toBe(records[0].body);
    // The scheduled retry finds the delivery settled and sends nothing.
    await makeDue(deliveryIds[0]);
    await consume(deliveryIds, 2);
    expect(await receiver.records()).toHaveLength(2);
  });

  it("keeps the body in R2 by its hash, and a re-send a day later, after the body cache is dropped, sends the first attempt's bytes", async () => {
    const { organisation, live } = await partnerWithKeys();
    const receiver = receiverBucket();
    const { id: endpointId, secret } = await register("partner", live.key, { url: receiver.url() });
    await receiver.trust(secret);
    const opened = await call("POST", "/partner/v1/leads", { key: live.key, body: { country: "GB", business: { name: "Bytes Before Ltd" } } });
    expect(opened.status).toBe(201);
    const event = await writeEvent({ organisationId: organisation.id, environment: "live", api: "partner", event: "lead.submitted", subjectType: "lead", subjectId: opened.body.id });
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const [first] = await receiver.records();
    expect(JSON.parse(first.body).data.business.name).toBe("Bytes Before Ltd");

    // D1 keeps the row and the hash, not the bytes; R2 holds them under the hash.
    const row = await inData.prepare("select body, body_hash, environment, created_at from webhook_deliveries where id = ?").bind(deliveryIds[0]).first<any>();
    expect(row.body).toBe("");
    expect(row.body_hash).toBe(await sha256Hex(first.body));
    const object = await env.DOCUMENTS.get(bodyKey({ environment: row.environment, createdAt: row.created_at }, row.body_hash));
    expect(await object!.text()).toBe(first.body);

    // The subject moves on (a body rebuilt now would differ), a day passes with the cron's retention, the isolate forgets.
    expect((await call("PATCH", `/partner/v1/leads/${opened.body.id}`, { key: live.key, body: { business: { name: "Bytes After Ltd" } } })).status).toBe(200);
    await pruneExpiredHistory(testDeps({ now: new Date(Date.now() + 24 * 60 * 60 * 1000) }));
    forgetCachedBodies();
    const res = await call("POST", `/partner/v1/webhooks/${endpointId}/deliveries/${deliveryIds[0]}/retry`, { key: live.key });
    expect(res.status).toBe(200);
    const [, again] = await receiver.records();
    expect(again.body).toBe(first.body);
    expect(again.headers["webhook-id"]).toBe(event.id);
    expect(again.verified).toEqual([{ plain: true, timestamped: true, stripe: true, standard: true }]);
  });
});
