/**
 * Queue and dispatch faults. The outbox event and its deliveries are rows in
 * D1; a queue message only says "attempt this delivery now". So a failed send
 * leaves a pending delivery that the cron re-sends once it is overdue, and a
 * failed claim leaves the event undispatched for the next dispatch.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { consumeWebhookDeliveries } from "../../src/jobs/webhook-consumer";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { runScheduledWork } from "../../src/jobs/scheduled";
import { dispatchPendingEvents } from "../../src/services/webhooks/dispatch";
import { callWithEnv, faultyEnv } from "../helpers/faults";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead } from "../leads/helpers";
import { consume, deliveries, dispatch, makeDue, receiverBucket, register, writeEvent } from "../webhooks/support/webhooks";
import { testDeps } from "../helpers/deps";

const MINUTE = 60_000;

/** A queue that keeps what it is sent, so the test hands the messages to the consumer itself. */
function recordingQueue() {
  const sent: string[] = [];
  const queue = {
    async send(body: { delivery_id: string }) {
      sent.push(body.delivery_id);
    },
    async sendBatch(messages: { body: { delivery_id: string } }[]) {
      sent.push(...messages.map((m) => m.body.delivery_id));
    },
  } as unknown as Queue;
  return { queue, sent };
}

async function lenderReceiver() {
  const { organisation, live } = await lenderWithKeys();
  const receiver = receiverBucket();
  const { id, secret } = await register("lender", live.key, { url: receiver.url() });
  await receiver.trust(secret);
  return { organisationId: organisation.id, key: live.key, endpointId: id, receiver };
}

const dealEvent = (organisationId: string) =>
  writeEvent({ organisationId, environment: "live", api: "lender", event: "deal.updated", subjectType: "deal", subjectId: `RF-${crypto.randomUUID().slice(0, 6)}`, detail: { update: { status: "in_review", reason: null, funded_amount: null } } });

const eventRow = (id: string) => env.DB.prepare("select dispatched_at from events where id = ?").bind(id).first<{ dispatched_at: string | null }>();

beforeEach(async () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
  // Earlier tests' undispatched events would be dispatched here too; start from a settled outbox.
  await env.DB.prepare("update events set dispatched_at = created_at where dispatched_at is null").run();
  await env.DB.prepare("update webhook_deliveries set state = 'cancelled' where state = 'pending'").run();
});

describe("a queue send failure", () => {
  it("leaves the delivery pending; the cron sends it once overdue (not before), and it is delivered once", async () => {
    const { organisationId, key, endpointId, receiver } = await lenderReceiver();
    const event = await dealEvent(organisationId);
    const faulty = faultyEnv({ queue: "every" });
    await expect(dispatchPendingEvents(testDeps({ env: faulty.env }))).rejects.toThrow(/injected fault: queue/);
    expect(faulty.switches.queue.failed.map((f) => f.operation)).toEqual(["sendBatch"]);
    expect((await eventRow(event.id))?.dispatched_at).toEqual(expect.any(String));
    const [pending] = await deliveries("lender", key, endpointId);
    expect(pending).toMatchObject({ event_id: event.id, state: "pending", attempt_count: 0, attempts: [] });

    const early = recordingQueue();
    await runScheduledWork({ ...env, WEBHOOK_QUEUE: early.queue }, new Date(Date.now() + 5 * MINUTE));
    expect(early.sent).toEqual([]);

    const overdue = recordingQueue();
    await runScheduledWork({ ...env, WEBHOOK_QUEUE: overdue.queue }, new Date(Date.now() + 11 * MINUTE));
    expect(overdue.sent).toEqual([pending.id]);
    await consume(overdue.sent);
    expect(await receiver.records()).toHaveLength(1);
    expect((await deliveries("lender", key, endpointId))[0]).toMatchObject({ state: "succeeded", attempt_count: 1 });
  });

  it("after a write with dispatch-after-write: the write still succeeds, the first attempts go out without the queue, and nothing is left unsent", async () => {
    const { organisation, live } = await partnerWithKeys();
    const receiver = receiverBucket();
    await register("partner", live.key, { url: receiver.url(), events: ["lead.submitted", "lead.out_of_scope"] });
    const lead = await createLead(live.key, { ...completeUkLead(), funding: { amount: 40_000, purpose: "working_capital", product_family: "business_loan" } });
    const faulty = faultyEnv({ queue: "every" });
    const res = await callWithEnv({ ...faulty.env, DISPATCH_AFTER_WRITE: "true" }, "POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key });
    expect(res.status).toBe(200);
    expect(faulty.switches.queue.failed.length).toBeGreaterThan(0);
    const { results } = await env.DB.prepare("select d.id, d.state from webhook_deliveries d join events e on e.id = d.event_id where e.subject_id = ? and d.organisation_id = ?").bind(lead.id, organisation.id).all<any>();
    expect(results.length).toBeGreaterThan(0);
    // The first attempt is made in the request's waitUntil, not through the queue (services/webhooks/first-attempt.ts),
    // so a failing queue delays nothing that attempt can deliver; whatever is still pending waits for the cron.
    expect(results.every((d) => d.state === "succeeded" || d.state === "pending")).toBe(true);
    expect(results.some((d) => d.state === "succeeded"), JSON.stringify(results)).toBe(true);
    const pending = results.filter((d) => d.state === "pending").map((d) => d.id);

    const cron = recordingQueue();
    await runScheduledWork({ ...env, WEBHOOK_QUEUE: cron.queue }, new Date(Date.now() + 11 * MINUTE));
    expect(cron.sent.sort()).toEqual(pending.sort());
  });
});

describe("a D1 failure while dispatching", () => {
  it("claiming the event fails: no delivery, the event stays undispatched, the next dispatch sends it", async () => {
    const { organisationId, key, endpointId } = await lenderReceiver();
    const event = await dealEvent(organisationId);
    const faulty = faultyEnv({ d1: (_call, operation) => operation === "batch" });
    await expect(dispatchPendingEvents(testDeps({ env: faulty.env }))).rejects.toThrow(/injected fault: d1 call #\d+ \(batch\)/);
    expect((await eventRow(event.id))?.dispatched_at).toBeNull();
    expect(await deliveries("lender", key, endpointId)).toEqual([]);

    const next = recordingQueue();
    const result = await dispatchPendingEvents(testDeps({ env: { WEBHOOK_QUEUE: next.queue } }));
    expect(result.events).toBe(1);
    expect(next.sent).toHaveLength(1);
    expect((await eventRow(event.id))?.dispatched_at).toEqual(expect.any(String));
  });
});

describe("a D1 failure in the queue consumer", () => {
  it("recording the attempt fails after the send: the message is retried and the delivery sent again, same event id", async () => {
    const { organisationId, key, endpointId, receiver } = await lenderReceiver();
    await dealEvent(organisationId);
    const [deliveryId] = (await dispatch()).deliveryIds;
    const batch = createMessageBatch("webhook-deliveries", [{ id: "msg-record-fails", timestamp: new Date(), attempts: 1, body: { delivery_id: deliveryId } }]);
    const faulty = faultyEnv({ d1: (_call, operation) => operation === "batch" });
    const ctx = createExecutionContext();
    await consumeWebhookDeliveries(batch as MessageBatch<{ delivery_id: string }>, faulty.env);
    const result = await getQueueResult(batch, ctx);
    expect(faulty.switches.d1.failed).toHaveLength(1);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["msg-record-fails"]);
    // The receiver had it; the attempt is not on record, and the delivery is still owed.
    expect(await receiver.records()).toHaveLength(1);
    const [owed] = await deliveries("lender", key, endpointId);
    expect(owed).toMatchObject({ state: "pending", attempts: [] });

    // The message comes back once the attempt's lease has passed: sent again and recorded.
    await makeDue(deliveryId);
    await consume([deliveryId], 2);
    const records = await receiver.records();
    expect(records).toHaveLength(2);
    expect(records[1].headers["webhook-id"]).toBe(records[0].headers["webhook-id"]);
    const [settled] = await deliveries("lender", key, endpointId);
    expect(settled).toMatchObject({ state: "succeeded", attempt_count: 2 });
    expect(settled.attempts).toEqual([expect.objectContaining({ attempt_number: 2, status_code: 200 })]);
  });
});
