import { createRoute, z } from "@hono/zod-openapi";
import type { WebhookApi } from "../../../domain/webhooks/subscriptions";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { DeliveryParams, IdParam, PageQuery, WebhookDelivery, WebhookEndpoint, webhookChanges, webhookRegistration } from "../schemas/webhooks";

const tags = ["Webhooks"];

/** Whose fault a failed lookup is (src/domain/webhooks/resolution.ts), told where a url is checked. */
const RESOLVER_NOTE =
  "The host is resolved (A and AAAA) and every address checked: a name that does not exist, has no address or has a non-public one is 400 `invalid_request` naming `url`. " +
  "When the DNS resolver cannot answer (unreachable, timed out, SERVFAIL) the answer is 503 `resolver_unavailable` with `Retry-After`: nothing was saved; send the same request again.";

export const webhookRoutes = (api: WebhookApi) => {
  const Endpoint = WebhookEndpoint(api);
  const registration = webhookRegistration(api);
  const changes = webhookChanges(api);
  const common = { tags, security: security[api] };
  return {
    register: createRoute({
      ...common,
      method: "post",
      path: "/webhooks",
      summary: "Register a webhook endpoint",
      description: "The URL must be https on a public host. The response carries `secret` once. An account holds a limited number of endpoints per API and environment: one more is 422 `cap_exceeded` (with `limit` and `current`). " +
        RESOLVER_NOTE,
      request: { body: jsonBody(registration) },
      responses: { 201: jsonContent(Endpoint, "The endpoint with its secret"), ...errorResponses("invalid_request", "cap_exceeded", "resolver_unavailable") },
    }),
    list: createRoute({
      ...common,
      method: "get",
      path: "/webhooks",
      summary: "List webhook endpoints",
      responses: { 200: jsonContent(z.object({ webhooks: z.array(Endpoint) }), "Endpoints, newest first"), ...errorResponses() },
    }),
    get: createRoute({
      ...common,
      method: "get",
      path: "/webhooks/{id}",
      summary: "One webhook endpoint",
      request: { params: IdParam },
      responses: { 200: jsonContent(Endpoint, "The endpoint"), ...errorResponses("not_found") },
    }),
    update: createRoute({
      ...common,
      method: "patch",
      path: "/webhooks/{id}",
      summary: "Change url, events, payload mode, description or active",
      description: `A new \`url\` is checked as at registration. ${RESOLVER_NOTE}`,
      request: { params: IdParam, body: jsonBody(changes) },
      responses: { 200: jsonContent(Endpoint, "The endpoint"), ...errorResponses("invalid_request", "not_found", "resolver_unavailable") },
    }),
    remove: createRoute({
      ...common,
      method: "delete",
      path: "/webhooks/{id}",
      summary: "Delete a webhook endpoint",
      description: "Pending deliveries are cancelled.",
      request: { params: IdParam },
      responses: { 204: { description: "Deleted" }, ...errorResponses("not_found") },
    }),
    rotate: createRoute({
      ...common,
      method: "post",
      path: "/webhooks/{id}/rotate-secret",
      summary: "Rotate the signing secret",
      description: "Returns the new secret once. The previous secret keeps signing (a second `v1`) for 24 hours.",
      request: { params: IdParam },
      responses: { 200: jsonContent(Endpoint, "The endpoint with its new secret"), ...errorResponses("not_found") },
    }),
    deliveries: createRoute({
      ...common,
      method: "get",
      path: "/webhooks/{id}/deliveries",
      summary: "Deliveries of an endpoint with every attempt, newest first",
      request: { params: IdParam, query: PageQuery },
      responses: {
        200: jsonContent(z.object({ deliveries: z.array(WebhookDelivery), next_cursor: z.string().nullable() }), "A page of deliveries"),
        ...errorResponses("invalid_request", "not_found"),
      },
    }),
    retry: createRoute({
      ...common,
      method: "post",
      path: "/webhooks/{id}/deliveries/{delivery_id}/retry",
      summary: "Re-send a delivery now",
      description: "One attempt at once with the stored body, signed afresh. Success settles the delivery; failure leaves its schedule as it was.",
      request: { params: DeliveryParams },
      responses: { 200: jsonContent(WebhookDelivery, "The delivery with the new attempt"), ...errorResponses("not_found", "conflict") },
    }),
    test: createRoute({
      ...common,
      method: "post",
      path: "/webhooks/{id}/test",
      summary: "Send a test ping",
      description:
        "Sends a signed `ping` event to the endpoint now, whatever its `events` filter, and answers with the delivery and its one attempt " +
        "(200 whether the receiver accepted it or not: read `state` and `attempts[0].status_code`/`error`). A ping is never retried and never listed by `GET /events`. " +
        "A deactivated endpoint is refused with 409 `conflict`.",
      request: { params: IdParam },
      responses: { 200: jsonContent(WebhookDelivery, "The ping's delivery with its attempt"), ...errorResponses("not_found", "conflict") },
    }),
  };
};
