import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { idempotencyRecords } from "../schema/identity";

/** Status stored while the first request with a key is still running and has written nothing. */
export const IN_FLIGHT = 0;
/**
 * Status once the request's business write has committed (written by that write's own batch) and
 * before its answer is stored: the key is spent, whatever happens to the answer.
 */
export const COMMITTED = 1;

/** One request's hold on a key: the scope key and the lease token its claim wrote (in `response_body` while unanswered). */
export interface Lease {
  scopeKey: string;
  token: string;
  /** When a committed record expires (the retention window). */
  committedUntil: number;
}


/**
 * Claims a key for a request: inserts an in-flight record, or takes over an
 * expired one. Returns true when this request owns the key; the primary key
 * decides between concurrent claimers.
 */
export async function claimIdempotencyKey(db: Database, lease: Lease, requestHash: string, now: number, leaseSeconds: number) {
  const { scopeKey, token } = lease;
  const result = await db
    .insert(idempotencyRecords)
    .values({ scopeKey, requestHash, status: IN_FLIGHT, responseBody: token, responseHeaders: {}, expiresAt: now + leaseSeconds })
    .onConflictDoUpdate({
      target: idempotencyRecords.scopeKey,
      set: { requestHash, status: IN_FLIGHT, responseBody: token, responseHeaders: {}, expiresAt: now + leaseSeconds },
      // An expired lease is taken over; its old holder's batch then aborts (see commitStatements),
      // so the two never both write. A committed key expires only after the retention window.
      setWhere: lt(idempotencyRecords.expiresAt, now),
    })
    .run();
  return result.meta.changes === 1;
}

/**
 * The two statements that end every batch a keyed request writes, so the key is spent in the same
 * transaction as the change it protects. The first marks the record COMMITTED if this request still
 * holds the lease, and otherwise writes NULL into a NOT NULL column; the second inserts a row with a
 * NULL hash when the record is gone. Either failure aborts the whole batch (a D1 batch is one
 * transaction), so a request whose lease was taken over, or freed, writes nothing.
 */
function commitStatements(db: Database, lease: Lease): [BatchItem<"sqlite">, BatchItem<"sqlite">] {
  const { scopeKey, token, committedUntil } = lease;
  const ours = sql`${idempotencyRecords.responseBody} = ${token} and ${idempotencyRecords.status} in (${IN_FLIGHT}, ${COMMITTED})`;
  return [
    db
      .update(idempotencyRecords)
      .set({ status: sql`case when ${ours} then ${COMMITTED} else null end`, expiresAt: committedUntil })
      .where(eq(idempotencyRecords.scopeKey, scopeKey)),
    // A NULL hash into a NOT NULL column when our record is gone: the batch aborts.
    insertWhere(
      db,
      idempotencyRecords,
      { scopeKey, requestHash: null as unknown as string, status: COMMITTED, responseBody: token, responseHeaders: {}, expiresAt: committedUntil },
      sql`not exists (select 1 from ${idempotencyRecords} where ${idempotencyRecords.scopeKey} = ${scopeKey} and ${idempotencyRecords.responseBody} = ${token})`,
    ),
  ];
}

/** The SQL of a batch item: `toSQL` on query builders, `getQuery` on raw statements (`db.get(sql…)`). */
function sqlOf(item: BatchItem<"sqlite">): string | null {
  const query = item as unknown as { toSQL?: () => { sql: string }; getQuery?: () => { sql: string } };
  return (query.toSQL ?? query.getQuery)?.call(item).sql ?? null;
}

/** A batch that only reads (a select, or several in one round trip) writes nothing and spends no key; an item we cannot read counts as a write. */
const batchWrites = (statements: readonly BatchItem<"sqlite">[]) => statements.some((s) => !/^\s*select\b/i.test(sqlOf(s) ?? ""));

/**
 * The request's database with the key's commit in every batch that writes: the business write and
 * the spending of the key are one transaction. `onCommit` is told after each such batch succeeds. A
 * batch of reads goes through as it is: it spends nothing, so a failure after it still frees the key.
 */
export function committingDatabase(db: Database, lease: Lease, onCommit: () => void): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "batch") return Reflect.get(target, property, receiver);
      return async (statements: BatchItem<"sqlite">[]) => {
        if (!batchWrites(statements)) return target.batch(statements as unknown as Parameters<Database["batch"]>[0]);
        const results = await target.batch([...statements, ...commitStatements(target, lease)] as unknown as Parameters<Database["batch"]>[0]);
        onCommit();
        return (results as unknown as unknown[]).slice(0, statements.length);
      };
    },
  });
}

export async function findIdempotencyRecord(db: Database, scopeKey: string) {
  return (await db.select().from(idempotencyRecords).where(eq(idempotencyRecords.scopeKey, scopeKey)).get()) ?? null;
}

export async function completeIdempotencyRecord(
  db: Database,
  lease: Lease,
  response: { status: number; body: string; headers: Record<string, string> },
  expiresAt: number,
) {
  await db
    .update(idempotencyRecords)
    .set({ status: response.status, responseBody: response.body, responseHeaders: response.headers, expiresAt })
    .where(and(eq(idempotencyRecords.scopeKey, lease.scopeKey), eq(idempotencyRecords.responseBody, lease.token), inArray(idempotencyRecords.status, [IN_FLIGHT, COMMITTED])));
}

/**
 * Frees a key whose request wrote nothing (a refusal, or a failure before any write), so a corrected
 * retry may use it. `alsoCommitted` frees a key whose batch ran but was refused by its own guard (a
 * 4xx answer says nothing was changed); a 5xx after a committed write never frees it.
 */
export async function releaseIdempotencyKey(db: Database, lease: Lease, alsoCommitted = false) {
  await db
    .delete(idempotencyRecords)
    .where(
      and(
        eq(idempotencyRecords.scopeKey, lease.scopeKey),
        eq(idempotencyRecords.responseBody, lease.token),
        inArray(idempotencyRecords.status, alsoCommitted ? [IN_FLIGHT, COMMITTED] : [IN_FLIGHT]),
      ),
    );
}

/** Housekeeping for a scheduled job: removes expired records. */
export async function deleteExpiredIdempotencyRecords(db: Database, now: number) {
  await db.delete(idempotencyRecords).where(sql`${idempotencyRecords.expiresAt} < ${now}`);
}
