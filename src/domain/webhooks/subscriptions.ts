/** Which events an endpoint may subscribe to and which it receives. Pure. */
import { LENDER_EVENT_VALUES, PARTNER_EVENT_VALUES } from "../reference/values";

export type WebhookApi = "partner" | "lender";
export type PayloadMode = "full" | "reference";
export type HostKind = "sandbox" | "production";

export const eventsOf = (api: WebhookApi): readonly string[] => (api === "partner" ? PARTNER_EVENT_VALUES : LENDER_EVENT_VALUES);
export const otherApi = (api: WebhookApi): WebhookApi => (api === "partner" ? "lender" : "partner");

export interface EndpointFacts {
  active: boolean;
  events: string[];
  hostKind: HostKind;
}

export interface EventFacts {
  event: string;
  environment: "sandbox" | "live";
  test: boolean;
}

/**
 * Endpoints are already scoped to the event's organisation, environment and
 * API by the query; this adds subscription and host kind. An endpoint
 * registered on a sandbox host receives only sandbox and test events.
 */
export function endpointReceives(endpoint: EndpointFacts, event: EventFacts): boolean {
  if (!endpoint.active || !endpoint.events.includes(event.event)) return false;
  return endpoint.hostKind === "production" || event.environment === "sandbox" || event.test;
}
