/**
 * The log line of one webhook delivery attempt: which event went to which
 * endpoint, the attempt, what came back and what follows. Ids and codes only:
 * never the endpoint's URL (its path or query may hold the receiver's own
 * token), never the payload, never the receiver's error text or the address
 * policy's reason (both may name the host).
 */
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../../db/webhooks/webhooks";
import type { AttemptOutcome, AttemptResult } from "../../domain/webhooks/delivery-schedule";
import type { Logger } from "../deps";

/** Who asked for the attempt: the first attempt right after the write, the queue, the owner's re-send, the test ping. */
export type DeliveryPath = "first_attempt" | "queue" | "resend" | "test_ping";

export interface DeliveryAttemptLog {
  path: DeliveryPath;
  delivery: WebhookDeliveryRow;
  endpoint: WebhookEndpointRow;
  /** The automatic attempt's number; null for re-sends and test pings, which stand outside the schedule. */
  attempt: number | null;
  result: AttemptResult;
  outcome: AttemptOutcome;
  durationMs: number;
}

export function logDeliveryAttempt({ log }: Logger, { path, delivery, endpoint, attempt, result, outcome, durationMs }: DeliveryAttemptLog) {
  const failed = outcome.delivery !== "succeeded";
  log(failed ? "warn" : "info", "webhook_delivery", {
    path,
    delivery_id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.event,
    endpoint_id: endpoint.id,
    organisation_id: endpoint.organisationId,
    environment: endpoint.environment,
    attempt,
    result: result.kind,
    status_code: result.kind === "response" ? result.status : null,
    outcome: outcome.delivery,
    retry_in_s: outcome.delivery === "retry" ? outcome.delaySeconds : null,
    duration_ms: durationMs,
  });
}
