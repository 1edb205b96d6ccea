import { listEvents } from "../../db/event-log";
import { scopeOf } from "../../domain/identity/caller";
import type { WebhookApi } from "../../domain/webhooks/subscriptions";
import { nextKeysetCursor, readKeysetCursor } from "../../lib/cursor";
import type { Router } from "../../lib/router";
import { eventData, WEBHOOK_API_VERSION } from "../../services/webhook-payloads";
import { viewContext } from "../../services/view-context";
import { listEventsRoute } from "./routes";
import { signingSecretOf } from "../../lib/signing-secret";

export function registerEventRoutes(router: Router, api: WebhookApi) {
  router.openapi(listEventsRoute(api), async (c) => {
    const { cursor, limit, event, subject } = c.req.valid("query");
    const ctx = viewContext(c.env);
    const db = ctx.db;
    const scope = scopeOf(c.get("caller"));
    const cursorScope = `events:${api}:${scope.organisationId}:${scope.environment}`;
    const page = await listEvents(db, scope, api, { event, subject }, await readKeysetCursor(cursor, cursorScope, signingSecretOf(c.env)), limit + 1);
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
            data: await eventData(ctx, e, "reference"),
          })),
        ),
        next_cursor: await nextKeysetCursor(last, page.length > limit, cursorScope, signingSecretOf(c.env)),
      },
      200,
    );
  });
}
