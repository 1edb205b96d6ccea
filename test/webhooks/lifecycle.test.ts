import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { call } from "../helpers/api";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { consume, deliveries, dispatch, endpoint, makeDue, receiverBucket, register, settleOutbox, writeEvent } from "./support/webhooks";
import { inData } from "../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

async function lenderEndpoint(behaviour: string, query = "") {
  const { organisation, live } = await lenderWithKeys();
  const receiver = receiverBucket();
  const { id, secret } = await register("lender", live.key, { url: receiver.url(behaviour, query) });
  await receiver.trust(secret);
  return { organisationId: organisation.id, key: live.key, receiver, endpointId: id };
}

const dealEvent = (organisationId: string, event = "deal.updated", detail: Record<string, unknown> = { update: { status: "in_review", reason: null, funded_amount: null } }) =>
  writeEvent({ organisationId, environment: "live", api: "lender", event, subjectType: "deal", subjectId: `RF-${crypto.randomUUID().slice(0, 6)}`, detail });

describe("retry schedule and endpoint health", () => {
  it("drives the whole backoff through the queue consumer: 60, 300, 1800, 7200, 43200 seconds, then exhausted", async () => {
    const { organisationId, key, receiver, endpointId } = await lenderEndpoint("status-500");
    await dealEvent(organisationId);
    const [deliveryId] = (await dispatch()).deliveryIds;
    const delays: (number | undefined)[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      if (attempt > 1) await makeDue(deliveryId);
      const result = await consume([deliveryId], attempt);
      if (attempt < 6) {
        expect(result.explicitAcks).toEqual([]);
        delays.push(result.retryMessages[0]?.delaySeconds);
      } else {
        expect(result.retryMessages).toEqual([]);
        expect(result.explicitAcks).toHaveLength(1);
      }
    }
    expect(delays).toEqual([60, 300, 1800, 7200, 43200]);
    const records = await receiver.records();
    expect(records).toHaveLength(6);
    expect(new Set(records.map((r) => r.body)).size).toBe(1);
    expect(new Set(records.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery).toMatchObject({ state: "exhausted", attempt_count: 6, next_attempt_at: null });
    expect(delivery.attempts.map((a: any) => a.attempt_number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await endpoint("lender", key, endpointId)).failure_count).toBe(6);
    // An exhausted delivery is never attempted again by the queue.
    await makeDue(deliveryId);
    await consume([deliveryId], 7);
    expect(await receiver.records()).toHaveLength(6);
  });

  it("honours a Retry-After on 429 when it asks for longer than the schedule", async () => {
    const { organisationId } = await lenderEndpoint("status-429", "?retry_after=900");
    await dealEvent(organisationId);
    const result = await consume((await dispatch()).deliveryIds);
    expect(result.retryMessages[0].delaySeconds).toBe(900);
  });

  it("deactivates the endpoint at once when the receiver answers 410 Gone", async () => {
    const { organisationId, key, receiver, endpointId } = await lenderEndpoint("status-410");
    await dealEvent(organisationId);
    const result = await consume((await dispatch()).deliveryIds);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await endpoint("lender", key, endpointId)).toMatchObject({ active: false, deactivated_reason: "gone" });
    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery).toMatchObject({ state: "cancelled", last_status_code: 410 });
    await dealEvent(organisationId);
    expect((await dispatch()).deliveryIds).toEqual([]);
    expect(await receiver.records()).toHaveLength(1);
  });

  it("deactivates the endpoint after 20 consecutive exhausted deliveries", async () => {
    const { organisationId, key, endpointId } = await lenderEndpoint("status-500");
    for (let i = 1; i <= 20; i++) {
      await dealEvent(organisationId);
      const [deliveryId] = (await dispatch()).deliveryIds;
      // Five attempts already failed (the schedule test above drives them one by one); this is the sixth.
      await inData.prepare("UPDATE webhook_deliveries SET attempt_count = 5 WHERE id = ?").bind(deliveryId).run();
      await consume([deliveryId], 6);
      const state = await endpoint("lender", key, endpointId);
      expect(state.active).toBe(i < 20);
    }
    expect(await endpoint("lender", key, endpointId)).toMatchObject({ active: false, deactivated_reason: "exhausted" });
  });

  it("counts only consecutive exhausted deliveries: a success in between starts the count again", async () => {
    const { organisationId, key, receiver, endpointId } = await lenderEndpoint("status-500");
    const exhaustOne = async () => {
      await dealEvent(organisationId);
      const [deliveryId] = (await dispatch()).deliveryIds;
      await inData.prepare("UPDATE webhook_deliveries SET attempt_count = 5 WHERE id = ?").bind(deliveryId).run();
      await consume([deliveryId], 6);
    };
    for (let i = 0; i < 19; i++) await exhaustOne();
    await call("PATCH", `/v1/webhooks/${endpointId}`, { key, body: { url: receiver.url("ok") } });
    await dealEvent(organisationId);
    await consume((await dispatch()).deliveryIds);
    expect(await endpoint("lender", key, endpointId)).toMatchObject({ active: true, failure_count: 0 });
    await call("PATCH", `/v1/webhooks/${endpointId}`, { key, body: { url: receiver.url("status-500") } });
    await exhaustOne();
    expect(await endpoint("lender", key, endpointId)).toMatchObject({ active: true, failure_count: 1, deactivated_reason: null });
  });

  it("sends nothing to a deactivated endpoint, including deliveries already queued", async () => {
    const { organisationId, key, receiver, endpointId } = await lenderEndpoint("ok");
    await dealEvent(organisationId);
    const queued = (await dispatch()).deliveryIds;
    await call("PATCH", `/v1/webhooks/${endpointId}`, { key, body: { active: false } });
    await consume(queued);
    await dealEvent(organisationId);
    expect((await dispatch()).deliveryIds).toEqual([]);
    expect(await receiver.records()).toEqual([]);
    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery.state).toBe("cancelled");
    expect(delivery.attempts).toEqual([]);
    expectConflict(await call("POST", `/v1/webhooks/${endpointId}/deliveries/${queued[0]}/retry`, { key }));
  });

  it("sends nothing to a deleted endpoint", async () => {
    const { organisationId, key, receiver, endpointId } = await lenderEndpoint("ok");
    await dealEvent(organisationId);
    const queued = (await dispatch()).deliveryIds;
    await call("DELETE", `/v1/webhooks/${endpointId}`, { key });
    await consume(queued);
    expect(await receiver.records()).toEqual([]);
  });

  it("turns every lender and partner event into a delivery the same way, detail beside the subject", async () => {
    const lender = await lenderEndpoint("ok");
    const details: [string, Record<string, unknown>][] = [
      ["deal.created", {}],
      ["deal.updated", { update: { status: "declined", reason: "affordability", funded_amount: null } }],
      ["message.created", { message: { id: "msg_1", direction: "borrower_to_lender", from_email: "a@b.test", subject: "Hi", body: "Hello", created_at: "2026-11-22T10:00:00.000Z" } }],
      ["request.fulfilled", { request: { id: "req_1", item_type: "bank_statements_6m", label: "Bank statements", file_count: 1, uploaded_at: "2026-11-22T10:00:00.000Z", files: [] } }],
      ["offer.accepted", { offer: { id: "off_1", amount: 10000 } }],
      ["deal.account_submitted", { completion: { state: "account_submitted" } }],
      ["deal.agreement_signed", { completion: { state: "agreement_signed" } }],
    ];
    for (const [event, detail] of details) await dealEvent(lender.organisationId, event, detail);
    const { organisation, live } = await partnerWithKeys();
    const partnerReceiver = receiverBucket();
    await register("partner", live.key, { url: partnerReceiver.url() });
    for (const event of ["lead.funded", "document.rejected"]) {
      await writeEvent({ organisationId: organisation.id, environment: "live", api: "partner", event, subjectType: "lead", subjectId: "lead-9", detail: { state: "x" } });
    }
    const { deliveryIds } = await dispatch();
    expect(deliveryIds).toHaveLength(9);
    await consume(deliveryIds);
    const received = await lender.receiver.records();
    expect(received.map((r) => r.headers["x-service-event"]).sort()).toEqual(details.map(([e]) => e).sort());
    for (const [event, detail] of details) {
      const body = JSON.parse(received.find((r) => r.headers["x-service-event"] === event)!.body);
      expect(body.event).toBe(event);
      expect(body.data).toMatchObject({ ...detail, payload_mode: "full", reference: expect.any(String) });
    }
    expect((await partnerReceiver.records()).map((r) => JSON.parse(r.body).data.lead_id)).toEqual(["lead-9", "lead-9"]);
  });

  it("delivers through the real queue when the cron trigger dispatches", { timeout: 30_000 }, async () => {
    const { organisationId, key, receiver, endpointId } = await lenderEndpoint("ok");
    await dealEvent(organisationId);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    let records = await receiver.records();
    for (let i = 0; i < 100 && records.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      records = await receiver.records();
    }
    expect(records).toHaveLength(1);
    expect(records[0].verified[0]).toEqual({ plain: true, timestamped: true, stripe: true, standard: true });
    let delivery = (await deliveries("lender", key, endpointId))[0];
    for (let i = 0; i < 50 && delivery.state !== "succeeded"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      delivery = (await deliveries("lender", key, endpointId))[0];
    }
    expect(delivery.state).toBe("succeeded");
  });
});

function expectConflict(res: { status: number; body: any }) {
  expect(res.status).toBe(409);
  expect(res.body.error.code).toBe("conflict");
}
