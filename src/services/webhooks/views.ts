/** Webhook endpoints and deliveries as both APIs answer them: listed fields only, never the stored secret. */
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from "../../db/webhooks/webhooks";

export const endpointView = (e: WebhookEndpointRow, secret?: string) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  active: e.active,
  created_at: e.createdAt,
  last_success_at: e.lastSuccessAt,
  last_failure_at: e.lastFailureAt,
  failure_count: e.failureCount,
  payload: e.payloadMode,
  environment: e.environment,
  host: e.hostKind,
  deactivated_reason: e.deactivatedReason as "gone" | "exhausted" | "manual" | null,
  ...(secret ? { secret } : {}),
});

export const deliveryView = (d: WebhookDeliveryRow, attempts: WebhookAttemptRow[]) => ({
  id: d.id,
  event_id: d.eventId,
  event: d.event,
  payload: d.payloadMode,
  state: d.state,
  attempt_count: d.attemptCount,
  next_attempt_at: d.nextAttemptAt,
  last_status_code: d.lastStatusCode,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
  attempts: attempts.map((a) => ({
    attempt_number: a.attemptNumber,
    trigger: a.trigger,
    attempted_at: a.attemptedAt,
    status_code: a.statusCode,
    error: a.error,
    response_body: a.responseBody,
    duration_ms: a.durationMs,
  })),
});

/** A delivery as the portal's log shows it to its owner: the API's view and the signed body that was sent (never the signature). */
export const deliveryLogView = (d: WebhookDeliveryRow, attempts: WebhookAttemptRow[], body: string) => ({ ...deliveryView(d, attempts), request_body: body });
