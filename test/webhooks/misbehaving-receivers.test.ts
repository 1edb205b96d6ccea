/**
 * Receivers that misbehave, one behaviour each, against the local receiver of
 * the suite (support/receiver.mjs): what is retried and when, what deactivates
 * the endpoint, and what each attempt records. The rules are the spec's
 * "Delivery outcome and retry" and the decisions' "Webhooks" section.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { lenderWithKeys } from "../helpers/seed";
import { consume, deliveries, dispatch, endpoint, makeDue, receiverBucket, register, settleOutbox, writeEvent } from "./support/webhooks";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

/** A shorter timeout for the hanging receiver; production's 5 s is proven by the "4.9 s" test and delivery.test.ts. */
const SHORT_TIMEOUT = { timeoutMs: 300 };

async function lenderEndpoint(behaviour: string, query = "") {
  const { organisation, live } = await lenderWithKeys();
  const receiver = receiverBucket();
  const { id, secret } = await register("lender", live.key, { url: receiver.url(behaviour, query) });
  await receiver.trust(secret);
  return { organisationId: organisation.id, key: live.key, receiver, endpointId: id };
}

const dealEvent = (organisationId: string) =>
  writeEvent({
    organisationId,
    environment: "live",
    api: "lender",
    event: "deal.updated",
    subjectType: "deal",
    subjectId: `RF-${crypto.randomUUID().slice(0, 6).toUpperCase()}`,
    detail: { update: { status: "in_review", reason: null, funded_amount: null } },
  });

/** One event, dispatched and attempted once; answers what the consumer decided and what was recorded. */
async function firstAttempt(behaviour: string, query = "", options?: { timeoutMs: number }) {
  const setup = await lenderEndpoint(behaviour, query);
  await dealEvent(setup.organisationId);
  const { deliveryIds } = await dispatch();
  expect(deliveryIds).toHaveLength(1);
  const result = await consume(deliveryIds, 1, options);
  const [delivery] = await deliveries("lender", setup.key, setup.endpointId);
  return { ...setup, deliveryId: deliveryIds[0], result, delivery, endpointAfter: await endpoint("lender", setup.key, setup.endpointId) };
}

/** A failed first attempt: one retry a minute later, delivery pending, endpoint still active with one failure. */
function expectScheduledRetry(outcome: Awaited<ReturnType<typeof firstAttempt>>, delaySeconds = 60) {
  expect(outcome.result.explicitAcks).toEqual([]);
  expect(outcome.result.retryMessages).toEqual([{ msgId: expect.any(String), delaySeconds }]);
  expect(outcome.delivery).toMatchObject({ state: "pending", attempt_count: 1 });
  const attempted = Date.parse(outcome.delivery.attempts[0].attempted_at);
  expect(Date.parse(outcome.delivery.next_attempt_at)).toBeGreaterThanOrEqual(attempted + delaySeconds * 1000);
  expect(outcome.endpointAfter).toMatchObject({ active: true, deactivated_reason: null, failure_count: 1, last_success_at: null });
  expect(outcome.endpointAfter.last_failure_at).toEqual(expect.any(String));
}

describe("a receiver that does not answer in time", () => {
  it("is a timeout: recorded without a status, retried after a minute, the endpoint stays active", async () => {
    const outcome = await firstAttempt("sleep-3000", "", SHORT_TIMEOUT);
    expectScheduledRetry(outcome);
    expect(outcome.delivery.last_status_code).toBeNull();
    expect(outcome.delivery.attempts).toEqual([
      expect.objectContaining({ attempt_number: 1, trigger: "automatic", status_code: null, error: "timeout: no response within 0.3 seconds" }),
    ]);
  });

  it("is exhausted after six timeouts, like any other failure", async () => {
    const { organisationId, key, endpointId, receiver } = await lenderEndpoint("sleep-3000");
    await dealEvent(organisationId);
    const [deliveryId] = (await dispatch()).deliveryIds;
    const delays: (number | undefined)[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      if (attempt > 1) await makeDue(deliveryId);
      const result = await consume([deliveryId], attempt, SHORT_TIMEOUT);
      delays.push(result.retryMessages[0]?.delaySeconds);
    }
    expect(delays).toEqual([60, 300, 1800, 7200, 43200, undefined]);
    const [delivery] = await deliveries("lender", key, endpointId);
    expect(delivery).toMatchObject({ state: "exhausted", attempt_count: 6, next_attempt_at: null, last_status_code: null });
    expect(delivery.attempts.every((a: any) => a.error.startsWith("timeout"))).toBe(true);
    expect(await endpoint("lender", key, endpointId)).toMatchObject({ active: true, failure_count: 6 });
    expect(await receiver.records()).toHaveLength(6);
  });

  it("answering after 4.9 seconds is inside the 5-second timeout: a success", { timeout: 30_000 }, async () => {
    const outcome = await firstAttempt("sleep-4900");
    expect(outcome.result.explicitAcks).toHaveLength(1);
    expect(outcome.result.retryMessages).toEqual([]);
    expect(outcome.delivery).toMatchObject({ state: "succeeded", attempt_count: 1, last_status_code: 200, next_attempt_at: null });
    expect(outcome.delivery.attempts).toEqual([expect.objectContaining({ attempt_number: 1, status_code: 200, error: null })]);
    expect(outcome.endpointAfter).toMatchObject({ active: true, failure_count: 0 });
    expect(outcome.endpointAfter.last_success_at).toEqual(expect.any(String));
  });
});

describe("a receiver that answers with an error", () => {
  it("500: recorded with its status, retried on the schedule", async () => {
    const outcome = await firstAttempt("status-500");
    expectScheduledRetry(outcome);
    expect(outcome.delivery.last_status_code).toBe(500);
    expect(outcome.delivery.attempts).toEqual([expect.objectContaining({ attempt_number: 1, status_code: 500, error: "http_500" })]);
  });

  it("410: the endpoint is deactivated at once, the delivery and every queued one cancelled, nothing retried", async () => {
    const { organisationId, key, endpointId, receiver } = await lenderEndpoint("status-410");
    await dealEvent(organisationId);
    await dealEvent(organisationId);
    const ids = (await dispatch()).deliveryIds;
    expect(ids).toHaveLength(2);
    const first = await consume([ids[0]]);
    expect(first.explicitAcks).toHaveLength(1);
    expect(first.retryMessages).toEqual([]);
    expect(await endpoint("lender", key, endpointId)).toMatchObject({ active: false, deactivated_reason: "gone", failure_count: 1 });
    // The second delivery was already on the queue: it is cancelled without a request.
    const second = await consume([ids[1]]);
    expect(second.explicitAcks).toHaveLength(1);
    expect(await receiver.records()).toHaveLength(1);
    const byId = Object.fromEntries((await deliveries("lender", key, endpointId)).map((d: any) => [d.id, d]));
    expect(byId[ids[0]]).toMatchObject({ state: "cancelled", attempt_count: 1, last_status_code: 410, next_attempt_at: null });
    expect(byId[ids[0]].attempts).toEqual([expect.objectContaining({ status_code: 410, error: "http_410" })]);
    expect(byId[ids[1]]).toMatchObject({ state: "cancelled", attempt_count: 0, attempts: [] });
    // Later events create no delivery for it.
    await dealEvent(organisationId);
    expect((await dispatch()).deliveryIds).toEqual([]);
  });
});

describe("a receiver that asks to slow down (429 and 503 with Retry-After)", () => {
  const cases: { name: string; behaviour: string; retryAfter?: string; delay: number }[] = [
    { name: "a longer Retry-After in seconds wins over the schedule", behaviour: "status-429", retryAfter: "3600", delay: 3600 },
    { name: "a shorter Retry-After leaves the schedule's minute", behaviour: "status-429", retryAfter: "5", delay: 60 },
    { name: "no Retry-After: the schedule", behaviour: "status-429", delay: 60 },
    { name: "an unreadable Retry-After: the schedule", behaviour: "status-429", retryAfter: "soon", delay: 60 },
    { name: "Retry-After beyond 12 hours is capped at the queue's longest delay", behaviour: "status-429", retryAfter: "200000", delay: 43200 },
    { name: "503 is read the same way", behaviour: "status-503", retryAfter: "900", delay: 900 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const query = c.retryAfter === undefined ? "" : `?retry_after=${encodeURIComponent(c.retryAfter)}`;
      const outcome = await firstAttempt(c.behaviour, query);
      expectScheduledRetry(outcome, c.delay);
      const status = Number(c.behaviour.slice(-3));
      expect(outcome.delivery.attempts).toEqual([expect.objectContaining({ status_code: status, error: `http_${status}` })]);
    });
  }

  it("an HTTP-date Retry-After an hour away wins over the schedule", async () => {
    const at = new Date(Date.now() + 3600_000).toUTCString();
    const outcome = await firstAttempt("status-429", `?retry_after=${encodeURIComponent(at)}`);
    const delay = outcome.result.retryMessages[0].delaySeconds!;
    // The date is whole seconds, read a moment after it was written: within a minute of an hour.
    expect(delay).toBeGreaterThan(3500);
    expect(delay).toBeLessThanOrEqual(3600);
    expect(outcome.delivery.state).toBe("pending");
  });
});

describe("a receiver that redirects", () => {
  // Decision: redirects are never followed (as Stripe does, a 3xx is a failure). The target of a
  // redirect never went through the address policy, so following one could reach a private address.
  it("to a public address: not followed, recorded as a failure with its status, retried on the schedule", async () => {
    const outcome = await firstAttempt("redirect-302", `?to=${encodeURIComponent("https://moved.hooks.example/new")}`);
    expectScheduledRetry(outcome);
    expect(outcome.delivery).toMatchObject({ last_status_code: 302 });
    expect(outcome.delivery.attempts).toEqual([expect.objectContaining({ status_code: 302, error: "http_302" })]);
    expect(await outcome.receiver.records()).toHaveLength(1);
  });

  it("to a private address: not followed, so nothing reaches it, for every redirect status", async () => {
    for (const code of [301, 302, 307, 308]) {
      const inside = receiverBucket();
      const outcome = await firstAttempt(`redirect-${code}`, `?to=${encodeURIComponent(inside.url("ok"))}`);
      expectScheduledRetry(outcome);
      expect(outcome.delivery.attempts).toEqual([expect.objectContaining({ status_code: code, error: `http_${code}` })]);
      expect(await inside.records()).toEqual([]);
      expect(await outcome.receiver.records()).toHaveLength(1);
    }
  });
});

describe("a receiver that closes the connection", () => {
  it("is a network error: recorded without a status, retried after a minute", async () => {
    const outcome = await firstAttempt("close");
    expectScheduledRetry(outcome);
    expect(outcome.delivery.last_status_code).toBeNull();
    expect(outcome.delivery.attempts).toEqual([expect.objectContaining({ status_code: null, error: expect.stringMatching(/^network_error: /) })]);
    expect(await outcome.receiver.records()).toHaveLength(1);
  });
});
