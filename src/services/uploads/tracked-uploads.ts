/**
 * R2 writes that precede their D1 row. The bytes go first so a row never
 * points at a missing file; a marker written before the bytes, and removed in
 * the same batch as the row lands, names every object whose row never did.
 * The cron (`sweepUnlandedUploads`) deletes those objects.
 */
import { clearPendingUploads, markUploadPending, referencedKeys, stalePendingUploads, uploadLandedStatement } from "../../db/documents/uploads";
import type { Deps } from "../deps";

/** Far longer than any request takes between its marker and its batch. */
export const UNLANDED_UPLOAD_GRACE_MS = 15 * 60 * 1000;
/** Markers handled per cron tick; what is left waits for the next tick. */
export const UPLOAD_SWEEP_BATCH = 100;

/** Puts `value` at `key` in the documents bucket (`deps.env.DOCUMENTS`), its marker first. */
export async function putTracked(deps: Deps, key: string, value: Parameters<R2Bucket["put"]>[1], options?: R2PutOptions) {
  await markUploadPending(deps.db, key, deps.clock().toISOString());
  await deps.env.DOCUMENTS.put(key, value, options);
}

/** The statement that clears the marker; goes in the batch, after the statements that write the row. */
export const uploadLanded = uploadLandedStatement;

/**
 * Deletes objects whose marker is older than the grace period and that no row
 * points at, then their markers. An object is deleted before its marker, so a
 * failed delete is tried again on the next tick.
 */
export async function sweepUnlandedUploads(deps: Deps, limit = UPLOAD_SWEEP_BATCH) {
  const { db, env } = deps;
  const now = deps.clock();
  const stale = await stalePendingUploads(db, new Date(now.getTime() - UNLANDED_UPLOAD_GRACE_MS).toISOString(), limit);
  if (stale.length === 0) return { checked: 0, deleted: 0 };
  const kept = await referencedKeys(db, stale.map((s) => s.storageKey));
  const orphans = stale.map((s) => s.storageKey).filter((key) => !kept.has(key));
  if (orphans.length > 0) await env.DOCUMENTS.delete(orphans);
  await clearPendingUploads(db, stale);
  return { checked: stale.length, deleted: orphans.length };
}
