import { and, count, desc, eq, getTableColumns, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import { writeOrder, writtenBefore } from "../write-order";
import type { Scope } from "../../domain/identity/caller";
import type { WebhookApi } from "../../domain/webhooks/subscriptions";
import { EXHAUSTED_DELIVERIES_BEFORE_DEACTIVATION } from "../../domain/webhooks/delivery-schedule";
import type { KeysetPosition } from "../../lib/cursor";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { runBatch, type Statement } from "../batch";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../schema/webhooks";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** An endpoint as its owner sees it: scoped to organisation, environment and API; deleted ones are gone. */
const ownedBy = (scope: Scope, api: WebhookApi, id?: string) =>
  and(
    eq(webhookEndpoints.organisationId, scope.organisationId),
    eq(webhookEndpoints.environment, scope.environment),
    eq(webhookEndpoints.api, api),
    isNull(webhookEndpoints.deletedAt),
    id === undefined ? undefined : eq(webhookEndpoints.id, id),
  );

/**
 * Inserts the endpoint unless its owner already has `cap` (not deleted) on this API and environment;
 * true when inserted. A batch of one, so a keyed request spends its Idempotency-Key with the row.
 */
export async function insertEndpointWithinCap(db: Database, row: WebhookEndpointRow, cap: number) {
  const held = sql`(select count(*) from ${webhookEndpoints} where ${ownedBy({ organisationId: row.organisationId, environment: row.environment }, row.api)})`;
  const [result] = await db.batch([insertWhere(db, webhookEndpoints, row, sql`${held} < ${cap}`)]);
  return (result as unknown as D1Result).meta.changes === 1;
}

export async function countEndpoints(db: Database, scope: Scope, api: WebhookApi) {
  return (await db.select({ n: count() }).from(webhookEndpoints).where(ownedBy(scope, api)).get())?.n ?? 0;
}

export async function findEndpoint(db: Database, scope: Scope, api: WebhookApi, id: string) {
  return (await db.select().from(webhookEndpoints).where(ownedBy(scope, api, id)).get()) ?? null;
}

export async function listEndpoints(db: Database, scope: Scope, api: WebhookApi) {
  return db.select().from(webhookEndpoints).where(ownedBy(scope, api)).orderBy(desc(webhookEndpoints.createdAt), desc(writeOrder(webhookEndpoints))).all();
}

/** A batch of one, so a keyed request (a secret rotation) spends its Idempotency-Key with the change. */
export async function updateEndpoint(db: Database, scope: Scope, api: WebhookApi, id: string, changes: Partial<typeof webhookEndpoints.$inferInsert>) {
  const [rows] = await db.batch([db.update(webhookEndpoints).set(changes).where(ownedBy(scope, api, id)).returning()]);
  return rows[0] ?? null;
}

/** Active endpoints that may receive an event of this organisation, environment and API. */
export async function activeEndpointsFor(db: Database, scope: Scope, api: WebhookApi) {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(ownedBy(scope, api), eq(webhookEndpoints.active, true)))
    .all();
}

/** The endpoint behind a delivery, deleted or not: the consumer decides what a deleted one means. */
export async function findDeliveryWithEndpoint(db: Database, deliveryId: string) {
  return (
    (await db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, deliveryId))
      .get()) ?? null
  );
}

export const deliveryInsert = (db: Database, row: typeof webhookDeliveries.$inferInsert) =>
  db.insert(webhookDeliveries).values(row).onConflictDoNothing();

/**
 * Claims automatic attempt `expected + 1`: only one consumer wins, and only
 * while the delivery is pending and due. The lease pushes `next_attempt_at`
 * forward so a duplicate message finds it not due.
 */
export async function claimAttempt(db: Database, deliveryId: string, expected: number, now: string, dueBy: string, leaseUntil: string) {
  const rows = await db
    .update(webhookDeliveries)
    .set({ attemptCount: expected + 1, nextAttemptAt: leaseUntil, updatedAt: now })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.state, "pending"),
        eq(webhookDeliveries.attemptCount, expected),
        lte(webhookDeliveries.nextAttemptAt, dueBy),
      ),
    )
    .returning({ attemptCount: webhookDeliveries.attemptCount });
  return rows.length === 1;
}

export async function cancelDelivery(db: Database, deliveryId: string, now: string) {
  await db
    .update(webhookDeliveries)
    .set({ state: "cancelled", nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.state, "pending")));
}

export interface AttemptRecord {
  attempt: typeof webhookAttempts.$inferInsert;
  deliveryId: string;
  endpointId: string;
  /** New delivery state and schedule; undefined leaves them (manual re-send that failed). */
  delivery?: { state: WebhookDeliveryRow["state"]; nextAttemptAt: string | null };
  success: boolean;
  /** The delivery just became exhausted: counts towards deactivation. */
  exhausted: boolean;
  gone: boolean;
  now: string;
}

/** One batch: the attempt, the delivery's new state and the endpoint's counters. */
export async function recordAttempt(db: Database, r: AttemptRecord) {
  await runBatch(db, attemptStatements(db, r));
}

/** The statements of `recordAttempt`, for a caller that writes them in a batch of its own (the test ping, with its delivery). */
export function attemptStatements(db: Database, r: AttemptRecord): Statement[] {
  const endpointChanges = r.success
    ? { lastSuccessAt: r.now, failureCount: 0, consecutiveExhausted: 0, updatedAt: r.now }
    : {
        lastFailureAt: r.now,
        failureCount: sql`${webhookEndpoints.failureCount} + 1`,
        ...(r.exhausted ? { consecutiveExhausted: sql`${webhookEndpoints.consecutiveExhausted} + 1` } : {}),
        updatedAt: r.now,
      };
  const statements = [
    db.insert(webhookAttempts).values(r.attempt),
    db
      .update(webhookDeliveries)
      .set({ ...(r.delivery ?? {}), lastStatusCode: r.attempt.statusCode ?? null, updatedAt: r.now })
      .where(eq(webhookDeliveries.id, r.deliveryId)),
    db.update(webhookEndpoints).set(endpointChanges).where(eq(webhookEndpoints.id, r.endpointId)),
  ] as const;
  const followUps = [];
  if (r.gone) {
    followUps.push(
      db.update(webhookEndpoints).set({ active: false, deactivatedReason: "gone" }).where(eq(webhookEndpoints.id, r.endpointId)),
    );
  }
  if (r.exhausted) {
    followUps.push(
      db
        .update(webhookEndpoints)
        .set({ active: false, deactivatedReason: "exhausted" })
        .where(
          and(
            eq(webhookEndpoints.id, r.endpointId),
            eq(webhookEndpoints.active, true),
            sql`${webhookEndpoints.consecutiveExhausted} >= ${EXHAUSTED_DELIVERIES_BEFORE_DEACTIVATION}`,
          ),
        ),
    );
  }
  return [...statements, ...followUps];
}

export async function listDeliveries(db: Database, endpointId: string, after: KeysetPosition | null, limit: number) {
  return listDeliveriesQuery(db, endpointId, after, limit).all();
}

export function listDeliveriesQuery(db: Database, endpointId: string, after: KeysetPosition | null, limit: number) {
  return db
    .select({ ...getTableColumns(webhookDeliveries), seq: writeOrder(webhookDeliveries) })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), after ? writtenBefore(webhookDeliveries, webhookDeliveries.createdAt, after) : undefined))
    .orderBy(desc(webhookDeliveries.createdAt), desc(writeOrder(webhookDeliveries)))
    .limit(limit);
}

export async function findDelivery(db: Database, endpointId: string, deliveryId: string) {
  return (
    (await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, deliveryId)))
      .get()) ?? null
  );
}

export async function attemptsOf(db: Database, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(webhookAttempts.attemptedAt, writeOrder(webhookAttempts))
    .all();
}

/** Pending deliveries long overdue: their queue message was lost (crash before enqueue, dropped message). */
export async function overdueDeliveries(db: Database, before: string, limit: number) {
  return db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.state, "pending"), lt(webhookDeliveries.nextAttemptAt, before)))
    .limit(limit)
    .all();
}
