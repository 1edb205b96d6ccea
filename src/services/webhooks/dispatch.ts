/**
 * Turns outbox rows (`events`) into webhook deliveries and queue messages.
 * Called by the cron trigger every minute and, to cut latency, by request
 * handlers right after they write events: `c.executionCtx.waitUntil(dispatchPendingEvents(c.env))`.
 */
import { OUTBOX_TABLE } from "../../db/event-rows";
import { claimEventStatement, undispatchedEvents } from "../../db/webhooks/event-log";
import type { EventRow } from "../../db/webhooks/events";
import { activeEndpointsFor, deliveryInsert, overdueDeliveries, type WebhookEndpointRow } from "../../db/webhooks/webhooks";
import { endpointReceives, type PayloadMode } from "../../domain/webhooks/subscriptions";
import { newId, nowIso } from "../../lib/ids";
import { linksFor, WEBHOOK_FILE_LINK_TTL_SECONDS } from "../views/links";
import { viewContext } from "../views/view-context";
import type { Deps } from "../deps";
import { serialisedBody, type PayloadContext } from "./payloads";

/**
 * Whether a request put an event in the outbox: `insertedInto` is the set its round-trip counter
 * kept. A request without a counter is taken to have written one, so dispatch still follows it.
 */
export const wroteOutboxEvents = (insertedInto: ReadonlySet<string> | undefined) => insertedInto === undefined || insertedInto.has(OUTBOX_TABLE);

/** The queue message: the delivery to attempt. Everything else is read from D1 when it is consumed. */
export interface DeliveryMessage {
  delivery_id: string;
}


const EVENTS_PER_ROUND = 100;
/** Bounds one run (a cron tick or a request's waitUntil); what is left waits for the next tick. */
const ROUNDS_PER_RUN = 5;
/** A pending delivery this far past due has lost its queue message and is sent again. */
const OVERDUE_AFTER_MS = 10 * 60 * 1000;

export async function enqueueDeliveries(queue: Queue, deliveryIds: string[], delaySeconds?: number) {
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await queue.sendBatch(
      deliveryIds.slice(i, i + 100).map((id) => ({ body: { delivery_id: id } satisfies DeliveryMessage, contentType: "json" as const, ...(delaySeconds ? { delaySeconds } : {}) })),
    );
  }
}

async function dispatchEvent(ctx: PayloadContext, event: EventRow, endpoints: WebhookEndpointRow[]) {
  const db = ctx.db;
  const now = nowIso();
  const receivers = endpoints.filter((e) => endpointReceives(e, event));
  const bodies = new Map<PayloadMode, string>();
  for (const mode of new Set(receivers.map((e) => e.payloadMode))) bodies.set(mode, await serialisedBody(ctx, event, mode));
  const deliveries = receivers.map((endpoint) => ({
    id: newId("whd", 24),
    endpointId: endpoint.id,
    organisationId: event.organisationId,
    environment: event.environment,
    eventId: event.id,
    event: event.event,
    payloadMode: endpoint.payloadMode,
    body: bodies.get(endpoint.payloadMode)!,
    state: "pending" as const,
    attemptCount: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  // Claim and deliveries commit together; the unique (endpoint, event) index makes a lost race a no-op.
  const [claimed] = await db.batch([claimEventStatement(db, event.id, now), ...deliveries.map((d) => deliveryInsert(db, d))]);
  return (claimed as { id: string }[]).length === 1 ? { claimed: true, ids: deliveries.map((d) => d.id) } : { claimed: false, ids: [] };
}

/**
 * `deliver`: what becomes of the new deliveries; by default each gets a queue
 * message. The request path passes `deliverFirstAttempts` (see
 * webhook-first-attempt.ts) to attempt them at once.
 */
export async function dispatchPendingEvents(
  deps: Deps,
  deliver: (deliveryIds: string[]) => Promise<unknown> = (ids) => enqueueDeliveries(deps.env.WEBHOOK_QUEUE, ids),
): Promise<{ events: number; deliveries: number }> {
  const ctx = viewContext(deps.env, { deps, links: linksFor(deps.env, WEBHOOK_FILE_LINK_TTL_SECONDS) });
  const db = ctx.db;
  const endpointsByScope = new Map<string, Promise<WebhookEndpointRow[]>>();
  let events = 0;
  let deliveries = 0;
  for (let round = 0; round < ROUNDS_PER_RUN; round++) {
    const pending = await undispatchedEvents(db, EVENTS_PER_ROUND);
    const enqueue: string[] = [];
    for (const event of pending) {
      const key = `${event.organisationId}|${event.environment}|${event.api}`;
      if (!endpointsByScope.has(key)) {
        endpointsByScope.set(key, activeEndpointsFor(db, { organisationId: event.organisationId, environment: event.environment }, event.api));
      }
      const { claimed, ids } = await dispatchEvent(ctx, event, await endpointsByScope.get(key)!);
      if (claimed) events++;
      enqueue.push(...ids);
    }
    await deliver(enqueue);
    deliveries += enqueue.length;
    if (pending.length < EVENTS_PER_ROUND) break;
  }
  return { events, deliveries };
}

/** Re-sends queue messages for pending deliveries whose message was lost; the consumer drops duplicates. */
export async function requeueOverdueDeliveries(deps: Deps) {
  const overdue = await overdueDeliveries(deps.db, new Date(deps.clock().getTime() - OVERDUE_AFTER_MS).toISOString(), 100);
  await enqueueDeliveries(deps.env.WEBHOOK_QUEUE, overdue.map((d) => d.id));
  return overdue.length;
}
