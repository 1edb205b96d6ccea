import { scopeOf } from "../../../domain/identity/caller";
import type { WebhookApi } from "../../../domain/webhooks/subscriptions";
import type { Router } from "../../router";
import { pageOfEvents } from "../../../services/webhooks/event-feed";
import { viewContext } from "../../../services/views/view-context";
import { listEventsRoute } from "./routes";

export function registerEventRoutes(router: Router, api: WebhookApi) {
  router.openapi(listEventsRoute(api), async (c) => {
    const { cursor, limit, event, subject } = c.req.valid("query");
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    return c.json(await pageOfEvents(ctx, scopeOf(c.get("caller")), api, { event, subject }, cursor, limit), 200);
  });
}
