/**
 * Turns outbox rows (`events`) into webhook deliveries and queue messages.
 * Called by the cron trigger every minute and, to cut latency, by request
 * handlers right after they write events: `c.executionCtx.waitUntil(dispatchPendingEvents(deps))`.
 */
import { databaseFor, type DataEnvironment } from "../../db/client";
import { OUTBOX_TABLE } from "../../db/event-rows";
import { claimEventStatement, undispatchedEvents } from "../../db/webhooks/event-log";
import type { EventRow } from "../../db/webhooks/events";
import { activeEndpointsFor, deliveryInsert, overdueDeliveries, type WebhookEndpointRow } from "../../db/webhooks/webhooks";
import { endpointReceives, type PayloadMode } from "../../domain/webhooks/subscriptions";
import { newId } from "../../lib/ids";
import { linksFor, WEBHOOK_FILE_LINK_TTL_SECONDS } from "../views/links";
import { viewContext } from "../views/view-context";
import { isoNow, type Deps } from "../deps";
import { serialisedBody, type PayloadContext } from "./payloads";
import { storeBody } from "./bodies";

/**
 * Whether a request put an event in the outbox: `insertedInto` is the set its round-trip counter
 * kept. A request without a counter is taken to have written one, so dispatch still follows it.
 */
export const wroteOutboxEvents = (insertedInto: ReadonlySet<string> | undefined) => insertedInto === undefined || insertedInto.has(OUTBOX_TABLE);

/**
 * The queue message: the delivery to attempt, and the environment whose database holds it (absent in a
 * message sent before the sandbox had its own database: read from `DB`, as then). Everything else is
 * read from D1 when it is consumed.
 */
export interface DeliveryMessage {
  delivery_id: string;
  environment?: DataEnvironment;
}

/** The message for a delivery of `deps`'s database. */
export const deliveryMessage = (deps: Pick<Deps, "environment">, deliveryId: string): DeliveryMessage => ({ delivery_id: deliveryId, environment: deps.environment ?? "live" });


const EVENTS_PER_ROUND = 100;
/** Bounds one run (a cron tick or a request's waitUntil); what is left waits for the next tick. */
const ROUNDS_PER_RUN = 5;
/** A pending delivery this far past due has lost its queue message and is sent again. */
const OVERDUE_AFTER_MS = 10 * 60 * 1000;

/** One queue message per delivery on the webhook queue (`deps.env.WEBHOOK_QUEUE`), 100 to a batch. */
export async function enqueueDeliveries(deps: Deps, deliveryIds: string[], delaySeconds?: number) {
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await deps.env.WEBHOOK_QUEUE.sendBatch(
      deliveryIds.slice(i, i + 100).map((id) => ({ body: deliveryMessage(deps, id), contentType: "json" as const, ...(delaySeconds ? { delaySeconds } : {}) })),
    );
  }
}

/**
 * What one round's batch writes for an event: its claim, then the delivery rows of its receivers. Each
 * mode's body is serialised here (a `full` one reads its subject, one event after another, as before) and
 * put in R2 by `puts`, which the round awaits, all events' puts at once, before its batch (bodies.ts): a
 * row never names a body that is not there.
 */
async function eventWrites(ctx: PayloadContext, event: EventRow, endpoints: WebhookEndpointRow[], now: string, puts: Promise<unknown>[]) {
  const db = ctx.db;
  const receivers = endpoints.filter((e) => endpointReceives(e, event));
  const hashes = new Map<PayloadMode, string>();
  for (const mode of new Set(receivers.map((e) => e.payloadMode))) {
    const body = await serialisedBody(ctx, event, mode);
    puts.push(storeBody(ctx, { environment: event.environment, createdAt: now }, body).then((hash) => hashes.set(mode, hash)));
  }
  const deliveries = () =>
    receivers.map((endpoint) => ({
      id: newId("whd", 24),
      endpointId: endpoint.id,
      organisationId: event.organisationId,
      environment: event.environment,
      eventId: event.id,
      event: event.event,
      payloadMode: endpoint.payloadMode,
      body: "",
      bodyHash: hashes.get(endpoint.payloadMode)!,
      state: "pending" as const,
      attemptCount: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    }));
  /** Once the round's puts are done: the claim and the inserts. */
  return () => {
    const rows = deliveries();
    return { claim: claimEventStatement(db, event.id, now), inserts: rows.map((d) => deliveryInsert(db, d)), ids: rows.map((d) => d.id) };
  };
}

/**
 * One round: the round's events claimed, and their deliveries written, in one D1 batch. Each claim is
 * conditional (`dispatched_at is null`), so an event another dispatcher claimed first returns no row
 * and its delivery inserts meet the unique (endpoint, event) index as no-ops: only the deliveries of
 * the events this batch claimed are handed on.
 */
async function dispatchRound(ctx: PayloadContext, pending: EventRow[], endpointsOf: (event: EventRow) => Promise<WebhookEndpointRow[]>) {
  const now = isoNow(ctx);
  const puts: Promise<unknown>[] = [];
  const planned = [];
  for (const event of pending) planned.push(await eventWrites(ctx, event, await endpointsOf(event), now, puts));
  await Promise.all(puts);
  const writes = planned.map((write) => write());
  const statements = writes.flatMap((w) => [w.claim, ...w.inserts]);
  const [first, ...rest] = statements;
  if (!first) return { events: 0, ids: [] };
  const results = await ctx.db.batch([first, ...rest]);
  let at = 0;
  let events = 0;
  const ids: string[] = [];
  for (const w of writes) {
    const claimed = (results[at] as { id: string }[]).length === 1;
    at += 1 + w.inserts.length;
    if (!claimed) continue;
    events++;
    ids.push(...w.ids);
  }
  return { events, ids };
}

/**
 * `deliver`: what becomes of the new deliveries; by default each gets a queue
 * message. The request path passes `deliverFirstAttempts` (see
 * webhook-first-attempt.ts) to attempt them at once.
 *
 * A round is one read of the oldest undispatched events, one read of the active endpoints per
 * scope met (kept for the run), and one batch: the D1 work grows with the rounds, not with the
 * events (it was one batch per event).
 */
export async function dispatchPendingEvents(
  deps: Deps,
  deliver: (deliveryIds: string[]) => Promise<unknown> = (ids) => enqueueDeliveries(deps, ids),
): Promise<{ events: number; deliveries: number }> {
  const ctx = viewContext(deps.env, { deps, links: linksFor(deps.env, WEBHOOK_FILE_LINK_TTL_SECONDS) });
  const db = ctx.db;
  const endpointsByScope = new Map<string, Promise<WebhookEndpointRow[]>>();
  const endpointsOf = (event: EventRow) => {
    const key = `${event.organisationId}|${event.environment}|${event.api}`;
    if (!endpointsByScope.has(key)) endpointsByScope.set(key, activeEndpointsFor(db, { organisationId: event.organisationId, environment: event.environment }, event.api));
    return endpointsByScope.get(key)!;
  };
  let events = 0;
  let deliveries = 0;
  for (let round = 0; round < ROUNDS_PER_RUN; round++) {
    const pending = await undispatchedEvents(db, EVENTS_PER_ROUND);
    const done = await dispatchRound(ctx, pending, endpointsOf);
    events += done.events;
    await deliver(done.ids);
    deliveries += done.ids.length;
    if (pending.length < EVENTS_PER_ROUND) break;
  }
  return { events, deliveries };
}

/** Per D1 binding (so a test's own binding is never folded into another's run): the run in flight and whether another was asked for meanwhile. */
const runsByDatabase = new WeakMap<object, { running: Promise<void>; again: () => void }>();

/**
 * The dispatch a write asks for in its `waitUntil`, at most one at a time per isolate and database.
 * A write that finds a run in flight does not start a second one over the same outbox (concurrent
 * runs each read the same pending events and raced to claim them, so ten concurrent submits did
 * the outbox's work about ten times over, on the one D1 every request waits for); it asks the run
 * in flight for one more pass, which starts after the current one and so finds the new events, and
 * waits on it. The promise settles after a pass that began after the call, and the deliveries it
 * started.
 */
export function dispatchSoon(deps: Deps, deliver: (deliveryIds: string[]) => Promise<unknown>, onError: (error: unknown) => void): Promise<void> {
  const key = databaseFor(deps.env, deps.environment ?? "live") as object;
  const inFlight = runsByDatabase.get(key);
  if (inFlight) {
    inFlight.again();
    return inFlight.running;
  }
  let again = false;
  const running = (async () => {
    // The deliveries (first attempts: a POST to each receiver, up to its timeout) are not part of the
    // pass: a slow receiver must not hold the next write's dispatch. They are started as each round's
    // batch commits and awaited once the passes are done, so the `waitUntil` still covers them.
    const delivering: Promise<unknown>[] = [];
    try {
      do {
        again = false;
        await dispatchPendingEvents(deps, async (ids) => void delivering.push(deliver(ids).catch(onError))).catch(onError);
      } while (again);
    } finally {
      runsByDatabase.delete(key);
    }
    await Promise.all(delivering);
  })();
  runsByDatabase.set(key, { running, again: () => (again = true) });
  return running;
}

/** Re-sends queue messages for pending deliveries whose message was lost; the consumer drops duplicates. */
export async function requeueOverdueDeliveries(deps: Deps) {
  const overdue = await overdueDeliveries(deps.db, new Date(deps.clock().getTime() - OVERDUE_AFTER_MS).toISOString(), 100);
  await enqueueDeliveries(deps, overdue.map((d) => d.id));
  return overdue.length;
}
