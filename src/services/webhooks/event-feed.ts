import { listEvents } from "../../db/webhooks/event-log";
import type { Scope } from "../../domain/identity/caller";
import type { WebhookApi } from "../../domain/webhooks/subscriptions";
import { nextKeysetCursor, readKeysetCursor } from "../../lib/cursor";
import { eventData, WEBHOOK_API_VERSION } from "./payloads";
import type { ViewContext } from "../views/view-context";

/**
 * One page of the caller's event log (`GET /events`), newest first, each event with its
 * reference payload. The cursor is bound to the API, organisation and environment, so it
 * cannot be replayed in another scope.
 */
export async function pageOfEvents(
  ctx: ViewContext,
  scope: Scope,
  api: WebhookApi,
  filter: { event?: string; subject?: string },
  cursor: string | undefined,
  limit: number,
  signingSecret: string,
) {
  const cursorScope = `events:${api}:${scope.organisationId}:${scope.environment}`;
  const page = await listEvents(ctx.db, scope, api, filter, await readKeysetCursor(cursor, cursorScope, signingSecret), limit + 1);
  const events = page.slice(0, limit);
  const last = events[events.length - 1];
  return {
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
    next_cursor: await nextKeysetCursor(last && { createdAt: last.createdAt, seq: last.seq }, page.length > limit, cursorScope, signingSecret),
  };
}
