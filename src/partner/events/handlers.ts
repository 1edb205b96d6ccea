import { database } from "../../db/client";
import { listEvents } from "../../db/event-log";
import { scopeOf } from "../../domain/identity/caller";
import type { WebhookApi } from "../../domain/webhooks/subscriptions";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import type { Router } from "../../lib/router";
import { eventData, WEBHOOK_API_VERSION } from "../../services/webhook-payloads";
import { listEventsRoute } from "./routes";

export function registerEventRoutes(router: Router, api: WebhookApi) {
  router.openapi(listEventsRoute(api), async (c) => {
    const { cursor, limit, event, subject } = c.req.valid("query");
    const db = database(c.env.DB);
    const page = await listEvents(db, scopeOf(c.get("caller")), api, { event, subject }, decodeCursor(cursor), limit + 1);
    const events = page.slice(0, limit);
    const last = events[events.length - 1];
    return c.json(
      {
        events: await Promise.all(
          events.map(async (e) => ({
            id: e.id,
            event: e.event,
            created_at: e.createdAt,
            environment: e.environment,
            livemode: e.environment === "live",
            api_version: WEBHOOK_API_VERSION,
            subject: { type: e.subjectType, id: e.subjectId },
            data: await eventData({ db }, e, "reference"),
          })),
        ),
        next_cursor: page.length > limit && last ? encodeCursor(last) : null,
      },
      200,
    );
  });
}
