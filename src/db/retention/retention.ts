/**
 * Deletes past retention, in bounded batches. Each statement picks its rows
 * with a subquery (oldest first, `LIMIT`), so no id list is bound and one call
 * never holds the database for long.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt, ne } from "drizzle-orm";
import type { Database } from "../client";
import { events } from "../schema/events";
import { webhookAttempts, webhookDeliveries } from "../schema/webhooks";

/** Events older than `cutoff` that have been dispatched; an undispatched event is still owed to the outbox. */
export async function pruneEvents(db: Database, cutoff: string, limit: number) {
  const oldest = db
    .select({ id: events.id })
    .from(events)
    .where(and(lt(events.createdAt, cutoff), isNotNull(events.dispatchedAt)))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(limit);
  const result = await db.delete(events).where(inArray(events.id, oldest)).run();
  return result.meta.changes;
}

/** Whether any delivery of the environment created in [from, to) is still held (a range of `webhook_deliveries_created`). */
export async function deliveriesHeldBetween(db: Database, environment: "sandbox" | "live", from: string, to: string) {
  const row = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(gte(webhookDeliveries.createdAt, from), lt(webhookDeliveries.createdAt, to), eq(webhookDeliveries.environment, environment)))
    .limit(1)
    .get();
  return row !== undefined;
}

/** Settled deliveries (not pending) older than `cutoff`, with their attempts, in one batch. */
export async function pruneDeliveries(db: Database, cutoff: string, limit: number) {
  const oldest = () =>
    db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(lt(webhookDeliveries.createdAt, cutoff), ne(webhookDeliveries.state, "pending")))
      .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
      .limit(limit);
  // Same subquery in one batch (one transaction): the attempts go with exactly the deliveries that go.
  const [, deliveries] = await db.batch([
    db.delete(webhookAttempts).where(inArray(webhookAttempts.deliveryId, oldest())),
    db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, oldest())),
  ]);
  return deliveries.meta.changes;
}
