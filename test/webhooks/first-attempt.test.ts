import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { attemptScheduledDelivery } from "../../src/services/webhooks/delivery";
import type { DeliveryMessage } from "../../src/services/webhooks/dispatch";
import { SAFETY_NET_DELAY_SECONDS } from "../../src/services/webhooks/first-attempt";
import { RETRY_DELAYS_SECONDS } from "../../src/domain/webhooks/delivery-schedule";
import { createLead } from "../leads/helpers";
import { partnerWithKeys } from "../helpers/seed";
import { receiverBucket, register, settleOutbox } from "./support/webhooks";
import { testDeps } from "../helpers/deps";
import { inData } from "../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

/** A queue that records what it is asked to carry, so the test plays the consumer. */
function recordingQueue() {
  const sent: { id: string; delaySeconds: number }[] = [];
  const queue = {
    async sendBatch(messages: { body: DeliveryMessage; delaySeconds?: number }[]) {
      sent.push(...messages.map((m) => ({ id: m.body.delivery_id, delaySeconds: m.delaySeconds ?? 0 })));
    },
    async send(body: DeliveryMessage, options?: { delaySeconds?: number }) {
      sent.push({ id: body.delivery_id, delaySeconds: options?.delaySeconds ?? 0 });
    },
  } as unknown as Queue;
  return { queue, sent };
}

async function submitWithDispatch(key: string, leadId: string, queue: Queue) {
  const ctx = createExecutionContext();
  const res = await createApp().request(
    `http://api.test/partner/v1/leads/${leadId}/submit`,
    { method: "POST", headers: { "X-API-Key": key } },
    { ...env, DISPATCH_AFTER_WRITE: "true", WEBHOOK_QUEUE: queue },
    ctx,
  );
  expect(res.status).toBe(200);
  await waitOnExecutionContext(ctx);
}

const deliveriesOf = (organisationId: string) =>
  inData.prepare("SELECT id, state, attempt_count, next_attempt_at FROM webhook_deliveries WHERE organisation_id = ? ORDER BY created_at, rowid")
    .bind(organisationId)
    .all<{ id: string; state: string; attempt_count: number; next_attempt_at: string | null }>()
    .then((r) => r.results);

const attemptsOf = (deliveryId: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = ?").bind(deliveryId).first<{ n: number }>().then((r) => r!.n);

describe("first delivery attempt right after the write", () => {
  it("delivers before the request's work ends, and the queue's safety message changes nothing", async () => {
    const { organisation, live } = await partnerWithKeys();
    const receiver = receiverBucket();
    await register("partner", live.key, { url: receiver.url(), events: ["lead.submitted"] });
    const lead = await createLead(live.key);
    const { queue, sent } = recordingQueue();

    await submitWithDispatch(live.key, lead.id, queue);

    const [delivery] = await deliveriesOf(organisation.id);
    expect(delivery).toMatchObject({ state: "succeeded", attempt_count: 1 });
    expect((await receiver.records()).length).toBe(1);
    // Only the safety net was queued, delayed past the attempt's lease.
    expect(sent).toEqual([{ id: delivery.id, delaySeconds: SAFETY_NET_DELAY_SECONDS }]);

    // The safety message arrives: the consumer finds the delivery settled and sends nothing.
    expect(await attemptScheduledDelivery(testDeps(), delivery.id)).toEqual({ action: "ack" });
    expect((await receiver.records()).length).toBe(1);
    expect(await attemptsOf(delivery.id)).toBe(1);
  });

  it("schedules the first retry as the queue consumer would when the first attempt fails", async () => {
    const { organisation, live } = await partnerWithKeys();
    const receiver = receiverBucket();
    await register("partner", live.key, { url: receiver.url("status-503"), events: ["lead.submitted"] });
    const lead = await createLead(live.key);
    const { queue, sent } = recordingQueue();

    await submitWithDispatch(live.key, lead.id, queue);

    const [delivery] = await deliveriesOf(organisation.id);
    expect(delivery).toMatchObject({ state: "pending", attempt_count: 1 });
    expect(sent).toEqual(
      expect.arrayContaining([
        { id: delivery.id, delaySeconds: SAFETY_NET_DELAY_SECONDS },
        { id: delivery.id, delaySeconds: RETRY_DELAYS_SECONDS[0] },
      ]),
    );
    expect(sent.length).toBe(2);
    // A message arriving before the retry is due (a duplicate, or the safety net early) attempts nothing.
    expect(await attemptScheduledDelivery(testDeps(), delivery.id)).toEqual({ action: "ack" });
    expect((await receiver.records()).length).toBe(1);
    expect(await attemptsOf(delivery.id)).toBe(1);
  });
});
