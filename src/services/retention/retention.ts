/**
 * The cron's retention job: events and settled webhook deliveries (with their
 * attempts) older than the retention period are deleted, a bounded number per
 * tick; a backlog shrinks over the following ticks. Then the bodies in R2 of
 * every day no delivery is left in (services/webhooks/bodies.ts).
 */
import { pruneDeliveries, pruneEvents } from "../../db/retention/retention";
import { pruneDeliveryBodies } from "../webhooks/bodies";
import { retentionCutoff, retentionDays, sandboxRetentionDays } from "../../domain/retention";
import type { Deps } from "../deps";

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

/** Runs once per database (jobs/scheduled.ts); the sandbox's has its own, shorter period (`SANDBOX_RETENTION_DAYS`). */
export async function pruneExpiredHistory(deps: Deps, bounds: PruneBounds = PRUNE_BOUNDS) {
  const { db, env } = deps;
  const days = deps.environment === "sandbox" ? sandboxRetentionDays(env.SANDBOX_RETENTION_DAYS) : retentionDays(env.EVENT_RETENTION_DAYS);
  const cutoff = retentionCutoff(deps.clock(), days);
  const deliveries = await inRounds(bounds, () => pruneDeliveries(db, cutoff, bounds.batch));
  const events = await inRounds(bounds, () => pruneEvents(db, cutoff, bounds.batch));
  const bodies = await pruneDeliveryBodies(deps, cutoff.slice(0, 10));
  return { cutoff, events, deliveries, bodies };
}
