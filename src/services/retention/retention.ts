/**
 * The cron's retention job: events and settled webhook deliveries (with their
 * attempts) older than the retention period are deleted, a bounded number per
 * tick; a backlog shrinks over the following ticks.
 */
import { database } from "../../db/client";
import { pruneDeliveries, pruneEvents } from "../../db/retention/retention";
import { retentionCutoff, retentionDays } from "../../domain/retention";
import type { Bindings } from "../../lib/env";

export interface PruneBounds {
  /** Rows one statement deletes at most. */
  batch: number;
  /** Statements per table per tick. */
  rounds: number;
}

export const PRUNE_BOUNDS: PruneBounds = { batch: 500, rounds: 4 };

async function inRounds(bounds: PruneBounds, prune: () => Promise<number>) {
  let total = 0;
  for (let round = 0; round < bounds.rounds; round++) {
    const deleted = await prune();
    total += deleted;
    if (deleted < bounds.batch) break;
  }
  return total;
}

export async function pruneExpiredHistory(env: Pick<Bindings, "DB" | "EVENT_RETENTION_DAYS">, now: Date, bounds: PruneBounds = PRUNE_BOUNDS) {
  const db = database(env.DB);
  const cutoff = retentionCutoff(now, retentionDays(env.EVENT_RETENTION_DAYS));
  const deliveries = await inRounds(bounds, () => pruneDeliveries(db, cutoff, bounds.batch));
  const events = await inRounds(bounds, () => pruneEvents(db, cutoff, bounds.batch));
  return { cutoff, events, deliveries };
}
