import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../client";
import { idempotencyRecords } from "../schema/identity";

/** Status stored while the first request with a key is still running. */
export const IN_FLIGHT = 0;


/**
 * Claims a key for a request: inserts an in-flight record, or takes over an
 * expired one. Returns true when this request owns the key; the primary key
 * decides between concurrent claimers.
 */
export async function claimIdempotencyKey(db: Database, scopeKey: string, requestHash: string, now: number, leaseSeconds: number) {
  const result = await db
    .insert(idempotencyRecords)
    .values({ scopeKey, requestHash, status: IN_FLIGHT, responseBody: "", responseHeaders: {}, expiresAt: now + leaseSeconds })
    .onConflictDoUpdate({
      target: idempotencyRecords.scopeKey,
      set: { requestHash, status: IN_FLIGHT, responseBody: "", responseHeaders: {}, expiresAt: now + leaseSeconds },
      setWhere: lt(idempotencyRecords.expiresAt, now),
    })
    .run();
  return result.meta.changes === 1;
}

export async function findIdempotencyRecord(db: Database, scopeKey: string) {
  return (await db.select().from(idempotencyRecords).where(eq(idempotencyRecords.scopeKey, scopeKey)).get()) ?? null;
}

export async function completeIdempotencyRecord(
  db: Database,
  scopeKey: string,
  response: { status: number; body: string; headers: Record<string, string> },
  expiresAt: number,
) {
  await db
    .update(idempotencyRecords)
    .set({ status: response.status, responseBody: response.body, responseHeaders: response.headers, expiresAt })
    .where(and(eq(idempotencyRecords.scopeKey, scopeKey), eq(idempotencyRecords.status, IN_FLIGHT)));
}

/** Frees a key whose request failed, so a corrected retry may use it. */
export async function releaseIdempotencyKey(db: Database, scopeKey: string) {
  await db.delete(idempotencyRecords).where(and(eq(idempotencyRecords.scopeKey, scopeKey), eq(idempotencyRecords.status, IN_FLIGHT)));
}

/** Housekeeping for a scheduled job: removes expired records. */
export async function deleteExpiredIdempotencyRecords(db: Database, now: number) {
  await db.delete(idempotencyRecords).where(sql`${idempotencyRecords.expiresAt} < ${now}`);
}
