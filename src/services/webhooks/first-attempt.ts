/**
 * The first attempt of a fresh delivery, made at once by the request that
 * wrote the event (in its `waitUntil`) instead of after the queue's batching
 * delay: a state change reaches its receiver in tens of milliseconds.
 *
 * Nothing is given up for it. Each delivery first gets a queue message
 * delayed past the attempt's lease, the safety net if this isolate stops
 * half-way; the attempt goes through the same lease (`claimAttempt`) as the
 * queue consumer, so the safety message, arriving later, finds the delivery
 * settled or not yet due and is dropped: one delivery, recorded once. A
 * failed first attempt is followed by a message delayed by the schedule's
 * first retry, as the consumer would have asked; retries are unchanged.
 */
import { attemptScheduledDelivery, ATTEMPT_LEASE_MS } from "./delivery";
import { deliveryMessage, enqueueDeliveries } from "./dispatch";
import type { Deps } from "../deps";

/** A safety message arrives once the first attempt's lease has run out (with room for the consumer's early tolerance). */
export const SAFETY_NET_DELAY_SECONDS = Math.ceil(ATTEMPT_LEASE_MS / 1000) + 15;
/** Deliveries attempted at once by one request; the rest go through the queue straight away. */
export const FIRST_ATTEMPTS_PER_RUN = 25;

async function attemptOnce(deps: Deps, deliveryId: string) {
  try {
    const next = await attemptScheduledDelivery(deps, deliveryId, {}, "first_attempt");
    if (next.action === "retry") {
      await deps.env.WEBHOOK_QUEUE.send(deliveryMessage(deps, deliveryId), { contentType: "json", delaySeconds: next.delaySeconds });
    }
  } catch (error) {
    // The safety message takes over; the attempt's lease keeps the two apart.
    deps.log.logError("webhook_first_attempt_failed", error, { delivery_id: deliveryId }, "warn");
  }
}

export async function deliverFirstAttempts(deps: Deps, deliveryIds: string[]) {
  const now = deliveryIds.slice(0, FIRST_ATTEMPTS_PER_RUN);
  const later = deliveryIds.slice(FIRST_ATTEMPTS_PER_RUN);
  // allSettled, not all: a failing queue must not end the request's waitUntil while the attempts are
  // still in flight (they would be cut off); a failed send is reported once everything has settled,
  // and the cron re-sends what is still pending (requeueOverdueDeliveries).
  const settled = await Promise.allSettled([
    enqueueDeliveries(deps, now, SAFETY_NET_DELAY_SECONDS),
    enqueueDeliveries(deps, later),
    ...now.map((id) => attemptOnce(deps, id)),
  ]);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}
