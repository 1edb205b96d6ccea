import type { Context } from "hono";
import { scopeOf } from "../../../domain/identity/caller";
import type { WebhookApi } from "../../../domain/webhooks/subscriptions";
import type { AppEnv } from "../../../app-env";
import type { Router } from "../../router";
import {
  changeEndpoint,
  deleteEndpoint,
  endpointDeliveries,
  ownEndpoints,
  registerEndpoint,
  requireEndpoint,
  resendByHand,
  rotateEndpointSecret,
  type EndpointContext,
} from "../../../services/webhooks/endpoints";
import { deliveryView, endpointView } from "../../../services/webhooks/views";
import { sendTestPing } from "../../../services/webhooks/test-ping";
import { webhookRoutes } from "./routes";

const contextOf = (c: Context<AppEnv>, api: WebhookApi): EndpointContext => ({
  ...c.get("deps"),
  scope: scopeOf(c.get("caller")),
  api,
});

/** The webhook endpoint routes, the same on both APIs; each API sees only its own endpoints. */
export function registerWebhookRoutes(router: Router, api: WebhookApi) {
  const routes = webhookRoutes(api);

  router.openapi(routes.register, async (c) => {
    const { endpoint, secret } = await registerEndpoint(contextOf(c, api), c.get("sandboxHost") ? "sandbox" : "production", c.req.valid("json"));
    c.header("Cache-Control", "no-store");
    c.header("Location", new URL(`${c.req.path}/${endpoint.id}`, c.req.url).toString());
    return c.json(endpointView(endpoint, secret), 201);
  });

  router.openapi(routes.list, async (c) => {
    const endpoints = await ownEndpoints(contextOf(c, api));
    return c.json({ webhooks: endpoints.map((e) => endpointView(e)) }, 200);
  });

  router.openapi(routes.get, async (c) => c.json(endpointView(await requireEndpoint(contextOf(c, api), c.req.valid("param").id)), 200));

  router.openapi(routes.update, async (c) => {
    const endpoint = await changeEndpoint(contextOf(c, api), c.req.valid("param").id, c.req.valid("json"));
    return c.json(endpointView(endpoint), 200);
  });

  router.openapi(routes.remove, async (c) => {
    await deleteEndpoint(contextOf(c, api), c.req.valid("param").id);
    return c.body(null, 204);
  });

  router.openapi(routes.rotate, async (c) => {
    const { endpoint, secret } = await rotateEndpointSecret(contextOf(c, api), c.req.valid("param").id);
    c.header("Cache-Control", "no-store");
    return c.json(endpointView(endpoint, secret), 200);
  });

  router.openapi(routes.deliveries, async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const page = await endpointDeliveries(contextOf(c, api), c.req.valid("param").id, cursor, limit);
    return c.json({ deliveries: page.deliveries.map((d) => deliveryView(d.delivery, d.attempts)), next_cursor: page.nextCursor }, 200);
  });

  router.openapi(routes.retry, async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    const { delivery, attempts } = await resendByHand(contextOf(c, api), id, delivery_id);
    return c.json(deliveryView(delivery, attempts), 200);
  });

  router.openapi(routes.test, async (c) => {
    const { delivery, attempts } = await sendTestPing(contextOf(c, api), c.req.valid("param").id);
    return c.json(deliveryView(delivery, attempts), 200);
  });
}
