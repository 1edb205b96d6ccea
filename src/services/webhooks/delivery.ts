/**
 * One attempt of one delivery: check the destination again, sign the stored
 * body (read from R2 by its hash, bodies.ts) with this attempt's timestamp, POST with a 5-second timeout, record the
 * attempt and decide what follows. The queue consumer and the manual re-send
 * both come through here.
 */
import { cancelDelivery, claimAttempt, findDeliveryWithEndpoint, recordAttempt, type WebhookDeliveryRow, type WebhookEndpointRow } from "../../db/webhooks/webhooks";
import { decideOutcome, describeResult, DELIVERY_TIMEOUT_MS, type AttemptResult } from "../../domain/webhooks/delivery-schedule";
import { RESPONSE_EXCERPT_BYTES, responseExcerpt } from "../../domain/webhooks/response-excerpt";
import { signatureHeaders } from "../../domain/webhooks/signature";
import { newId } from "../../lib/ids";
import { checkDestination } from "./destination";
import { endpointSecrets } from "./secrets";
import { logDeliveryAttempt, type DeliveryPath } from "./delivery-log";
import { afterSuccessfulDelivery } from "./success-hooks";
import { bodyOf } from "./bodies";
import { epochSeconds, isoNow, type Deps } from "../deps";

/**
 * Knobs for tests only: production code never passes them, so the spec's
 * 5-second timeout holds there (no var or binding can change it).
 */
export interface DeliveryOptions {
  timeoutMs?: number;
}

/** What the queue should do with the message. */
export type ConsumerAction = { action: "ack" } | { action: "retry"; delaySeconds: number };

/** How long an attempt holds the delivery before another message may try again. */
export const ATTEMPT_LEASE_MS = 60_000;
const EARLY_TOLERANCE_MS = 10_000;

/** What a send needs of the delivery: its ids and event for the headers, and the bytes to sign and send. */
type Outgoing = Pick<WebhookDeliveryRow, "id" | "event" | "eventId" | "payloadMode"> & { body: string };

async function send(deps: Deps, endpoint: WebhookEndpointRow, delivery: Outgoing, timeoutMs: number): Promise<AttemptResult> {
  const destination = await checkDestination(deps, endpoint.url);
  if (!destination.ok) {
    // A resolver outage is the network failing, not the endpoint's address: retried on the same schedule either way.
    return destination.kind === "unavailable" ? { kind: "network_error", message: destination.reason } : { kind: "refused", reason: destination.reason };
  }
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "ReferralFundingService-Webhooks/1.0",
    "X-Service-Event": delivery.event,
    "X-Service-Delivery": delivery.id,
    "X-Service-Payload": delivery.payloadMode,
    ...(await signatureHeaders({
      secrets: await endpointSecrets(deps, endpoint),
      eventId: delivery.eventId,
      body: delivery.body,
      timestamp: epochSeconds(deps),
    })),
  };
  try {
    const res = await fetch(destination.url, {
      method: "POST",
      headers,
      body: delivery.body,
      // Redirects are not followed: the target of a redirect never went through the address policy.
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { kind: "response", status: res.status, retryAfter: res.headers.get("Retry-After"), body: await answerExcerpt(res) };
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") return { kind: "timeout", afterMs: timeoutMs };
    return { kind: "network_error", message: String((error as Error)?.message ?? error) };
  }
}

/**
 * The start of the receiver's answer for the delivery log: at most RESPONSE_EXCERPT_BYTES are read, the
 * rest is cancelled unread. A body that breaks off or outlasts the attempt's timeout keeps what arrived:
 * the status is the answer that counts.
 */
async function answerExcerpt(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // Cut off mid-body (timeout, reset): what was read stands.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(size, RESPONSE_EXCERPT_BYTES));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.byteLength;
    if (at >= bytes.length) break;
  }
  return responseExcerpt(bytes);
}

/** One signed POST of the delivery's stored body, timed; the scheduled, manual and test sends share it. */
export async function timedSend(deps: Deps, endpoint: WebhookEndpointRow, delivery: Outgoing, options: DeliveryOptions = {}) {
  // Elapsed time, not the time of day: performance.now(), which a fixed Deps clock leaves alone.
  const started = performance.now();
  const result = await send(deps, endpoint, delivery, options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
  return { result, durationMs: Math.round(performance.now() - started) };
}

const endpointUsable = (endpoint: WebhookEndpointRow | null): endpoint is WebhookEndpointRow =>
  endpoint !== null && endpoint.active && endpoint.deletedAt === null;

/** The automatic attempt a queue message (or the first attempt after the write, `path`) asks for. */
export async function attemptScheduledDelivery(deps: Deps, deliveryId: string, options: DeliveryOptions = {}, path: DeliveryPath = "queue"): Promise<ConsumerAction> {
  const { db } = deps;
  const found = await findDeliveryWithEndpoint(db, deliveryId);
  if (!found || found.delivery.state !== "pending") return { action: "ack" };
  const { delivery, endpoint } = found;
  const now = deps.clock();
  if (!endpointUsable(endpoint)) {
    // A deactivated or deleted endpoint receives nothing; reactivation does not revive old deliveries.
    await cancelDelivery(db, delivery.id, now.toISOString());
    return { action: "ack" };
  }
  const attempt = delivery.attemptCount + 1;
  const claimed = await claimAttempt(
    db,
    delivery.id,
    delivery.attemptCount,
    now.toISOString(),
    // Queue delays are not exact to the second; a message a little early still counts as due.
    new Date(now.getTime() + EARLY_TOLERANCE_MS).toISOString(),
    new Date(now.getTime() + ATTEMPT_LEASE_MS).toISOString(),
  );
  // Not due, already taken or finished: a duplicate message; the live one carries on.
  if (!claimed) return { action: "ack" };

  const body = await bodyOf(deps, delivery);
  const attemptedAt = isoNow(deps);
  const { result, durationMs } = await timedSend(deps, endpoint, { ...delivery, body }, options);
  const finished = deps.clock();
  const outcome = decideOutcome(attempt, result, finished);
  const finishedAt = finished.toISOString();
  await recordAttempt(db, {
    attempt: { id: newId("wha", 24), deliveryId: delivery.id, attemptNumber: attempt, trigger: "automatic", attemptedAt, durationMs, ...describeResult(result) },
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    delivery:
      outcome.delivery === "retry"
        ? { state: "pending", nextAttemptAt: new Date(finished.getTime() + outcome.delaySeconds * 1000).toISOString() }
        : { state: outcome.delivery === "succeeded" ? "succeeded" : outcome.delivery === "gone" ? "cancelled" : "exhausted", nextAttemptAt: null },
    success: outcome.delivery === "succeeded",
    exhausted: outcome.delivery === "exhausted",
    gone: outcome.delivery === "gone",
    now: finishedAt,
  });
  logDeliveryAttempt(deps.log, { path, delivery, endpoint, attempt, result, outcome, durationMs });
  if (outcome.delivery === "succeeded") await afterSuccessfulDelivery(deps, delivery, body);
  return outcome.delivery === "retry" ? { action: "retry", delaySeconds: outcome.delaySeconds } : { action: "ack" };
}

/**
 * A re-send asked for by the endpoint's owner: one attempt now, outside the
 * schedule. Success settles a pending or exhausted delivery; failure leaves
 * its state and schedule as they were. The endpoint must be active.
 */
export async function resendDelivery(deps: Deps, endpoint: WebhookEndpointRow, delivery: WebhookDeliveryRow) {
  const { db } = deps;
  const body = await bodyOf(deps, delivery);
  const attemptedAt = isoNow(deps);
  const { result, durationMs } = await timedSend(deps, endpoint, { ...delivery, body });
  const outcome = decideOutcome(1, result, deps.clock());
  const success = outcome.delivery === "succeeded";
  await recordAttempt(db, {
    attempt: { id: newId("wha", 24), deliveryId: delivery.id, attemptNumber: null, trigger: "manual", attemptedAt, durationMs, ...describeResult(result) },
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    delivery: success ? { state: "succeeded", nextAttemptAt: null } : undefined,
    success,
    exhausted: false,
    gone: outcome.delivery === "gone",
    now: isoNow(deps),
  });
  logDeliveryAttempt(deps.log, { path: "resend", delivery, endpoint, attempt: null, result, outcome, durationMs });
  if (success) await afterSuccessfulDelivery(deps, delivery, body);
}
