/**
 * The `ping` event: what `POST …/webhooks/{id}/test` sends so a developer can
 * see a signed delivery reach a receiver without waiting for a real event.
 *
 * It is not one of the subscribable events (it is not in the events list of
 * either API): a ping is sent to the endpoint it is asked for whatever that
 * endpoint's `events` filter holds, and it never enters the events outbox, so
 * `GET /events` does not list it and no other endpoint receives it.
 */
import type { PayloadMode } from "./subscriptions";

export const PING_EVENT = "ping";

export interface PingFacts {
  eventId: string;
  createdAt: string;
  environment: "sandbox" | "live";
  apiVersion: string;
  endpoint: { id: string; url: string; events: string[]; payloadMode: PayloadMode };
}

/** The same envelope every event has; `data` describes the endpoint, identical in both payload modes. */
export function pingEnvelope(p: PingFacts) {
  return {
    id: p.eventId,
    event: PING_EVENT,
    created_at: p.createdAt,
    environment: p.environment,
    livemode: p.environment === "live",
    api_version: p.apiVersion,
    data: {
      endpoint_id: p.endpoint.id,
      url: p.endpoint.url,
      events: p.endpoint.events,
      message: "A test delivery asked for with POST /webhooks/{id}/test.",
      payload_mode: p.endpoint.payloadMode,
    },
  };
}
