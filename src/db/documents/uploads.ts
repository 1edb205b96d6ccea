/** Markers of R2 objects whose row has not landed yet (schema/uploads.ts). */
import { and, asc, inArray, lt, or, sql } from "drizzle-orm";
import { runBatch } from "../batch";
import type { Database } from "../client";
import { deals } from "../schema/deals";
import { documents } from "../schema/documents";
import { pendingUploads } from "../schema/uploads";

/** Written before the object; a second write of the same key (an agreement replaced) restarts its clock. */
export async function markUploadPending(db: Database, storageKey: string, at: string) {
  await db.insert(pendingUploads).values({ storageKey, createdAt: at }).onConflictDoUpdate({ target: pendingUploads.storageKey, set: { createdAt: at } });
}

/**
 * A statement: marks an object the row no longer points at (a replaced agreement), so the
 * sweeper deletes it once nothing references it; put in the batch that moves the row away.
 */
export const uploadReleasedStatement = (db: Database, storageKey: string, at: string) =>
  db.insert(pendingUploads).values({ storageKey, createdAt: at }).onConflictDoUpdate({ target: pendingUploads.storageKey, set: { createdAt: at } });

const referenced = (storageKey: string) =>
  or(
    sql`exists (select 1 from ${documents} where ${documents.storageKey} = ${storageKey})`,
    sql`exists (select 1 from ${deals} where ${deals.agreementKey} = ${storageKey})`,
  );

/**
 * Put in the batch after the statements that write the row: the marker goes
 * only if a row now points at the key, so a batch whose guarded insert lost a
 * race keeps its marker and the object is swept.
 */
export const uploadLandedStatement = (db: Database, storageKey: string) =>
  db.delete(pendingUploads).where(and(sql`${pendingUploads.storageKey} = ${storageKey}`, referenced(storageKey)));

export async function stalePendingUploads(db: Database, before: string, limit: number) {
  return db.select().from(pendingUploads).where(lt(pendingUploads.createdAt, before)).orderBy(asc(pendingUploads.createdAt)).limit(limit).all();
}

/** Which of `keys` a document row or a deal's agreement points at. */
export async function referencedKeys(db: Database, keys: string[]) {
  if (keys.length === 0) return new Set<string>();
  const [docs, agreements] = await db.batch([
    db.select({ key: documents.storageKey }).from(documents).where(inArray(documents.storageKey, keys)),
    db.select({ key: deals.agreementKey }).from(deals).where(inArray(deals.agreementKey, keys)),
  ]);
  return new Set([...docs, ...agreements].map((r) => r.key).filter((k): k is string => k !== null));
}

/** Removes markers in one batch, except any re-written since they were read (an agreement being replaced keeps its own). */
export async function clearPendingUploads(db: Database, rows: { storageKey: string; createdAt: string }[]) {
  await runBatch(
    db,
    rows.map((r) => db.delete(pendingUploads).where(and(sql`${pendingUploads.storageKey} = ${r.storageKey}`, sql`${pendingUploads.createdAt} = ${r.createdAt}`))),
  );
}
