/**
 * `POST …/webhooks/{id}/test`: a signed `ping` sent at once to one endpoint,
 * through the same signing and sending code as every delivery, recorded as a
 * delivery with its one attempt, and answered with that delivery.
 *
 * Sent inline rather than queued so the developer reads the outcome (status
 * code or error) in the answer. It is attempted once and never retried: the
 * delivery ends `succeeded` or `exhausted`. It is `manual` like a re-send: it
 * updates the endpoint's `last_success_at`/`failure_count` as any attempt
 * does, a 410 deactivates the endpoint, and it never counts towards the
 * 20-exhausted-deliveries deactivation.
 *
 * The delivery is written once the attempt is over, in one batch with its
 * attempt and the endpoint's counters (and, on a keyed request, the
 * Idempotency-Key's commit): it exists settled or not at all. A failure of
 * that batch leaves no delivery (never one `pending` that nothing would ever
 * settle) and fails (`internal_error`), which says nothing was saved; the receiver may
 * have had the ping, and a retry sends another.
 */
import { runBatch } from "../../db/batch";
import { attemptStatements, attemptsOf, deliveryInsert, findDelivery } from "../../db/webhooks/webhooks";
import { decideOutcome, describeResult } from "../../domain/webhooks/delivery-schedule";
import { PING_EVENT, pingEnvelope } from "../../domain/webhooks/ping";
import { Refusal } from "../../lib/refusal";
import { newId } from "../../lib/ids";
import { isoNow } from "../deps";
import { timedSend } from "./delivery";
import { logDeliveryAttempt } from "./delivery-log";
import { requireEndpoint, type EndpointContext } from "./endpoints";
import { WEBHOOK_API_VERSION } from "./payloads";
import { storeBody } from "./bodies";


export async function sendTestPing(ctx: EndpointContext, id: string) {
  const endpoint = await requireEndpoint(ctx, id);
  if (!endpoint.active) throw new Refusal("conflict", "The endpoint is deactivated; reactivate it (PATCH active: true) before sending a test.");

  const now = isoNow(ctx);
  const eventId = newId("evt", 24);
  const body = JSON.stringify(
    pingEnvelope({
      eventId,
      createdAt: now,
      environment: endpoint.environment,
      apiVersion: WEBHOOK_API_VERSION,
      endpoint: { id: endpoint.id, url: endpoint.url, events: endpoint.events, payloadMode: endpoint.payloadMode },
    }),
  );
  const delivery = {
    id: newId("whd", 24),
    endpointId: endpoint.id,
    organisationId: endpoint.organisationId,
    environment: endpoint.environment,
    eventId,
    event: PING_EVENT,
    payloadMode: endpoint.payloadMode,
    body: "",
    bodyHash: null as string | null,
    // Written with its attempt, which settles it in the same batch; no next attempt: nothing schedules it.
    state: "pending" as const,
    attemptCount: 0,
    nextAttemptAt: null,
    lastStatusCode: null,
    createdAt: now,
    updatedAt: now,
  };
  const attemptedAt = isoNow(ctx);
  const { result, durationMs } = await timedSend(ctx, endpoint, { ...delivery, body });
  const outcome = decideOutcome(1, result, ctx.clock());
  const success = outcome.delivery === "succeeded";
  const settle = attemptStatements(ctx.db, {
    attempt: { id: newId("wha", 24), deliveryId: delivery.id, attemptNumber: null, trigger: "manual", attemptedAt, durationMs, ...describeResult(result) },
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    delivery: { state: success ? "succeeded" : outcome.delivery === "gone" ? "cancelled" : "exhausted", nextAttemptAt: null },
    success,
    exhausted: false,
    gone: outcome.delivery === "gone",
    now: isoNow(ctx),
  });
  // Its body in R2 before its row, as a dispatched delivery's, so a re-send of the ping sends the same bytes.
  delivery.bodyHash = await storeBody(ctx, delivery, body);
  // One batch: the delivery, its attempt (which settles it) and the endpoint's counters.
  await runBatch(ctx.db, [deliveryInsert(ctx.db, delivery), ...settle]);
  logDeliveryAttempt(ctx.log, { path: "test_ping", delivery, endpoint, attempt: null, result, outcome, durationMs });
  return { delivery: (await findDelivery(ctx.db, endpoint.id, delivery.id))!, attempts: await attemptsOf(ctx.db, [delivery.id]) };
}

/**
 * A test ping of this endpoint with its attempt, for the page that reports its outcome (the portal
 * redirects there with the ping's delivery id); null when the id is no ping of this endpoint.
 */
export async function testPingOf(ctx: EndpointContext, id: string, deliveryId: string) {
  const endpoint = await requireEndpoint(ctx, id);
  const delivery = await findDelivery(ctx.db, endpoint.id, deliveryId);
  if (!delivery || delivery.event !== PING_EVENT) return null;
  return { delivery, attempts: await attemptsOf(ctx.db, [delivery.id]) };
}
