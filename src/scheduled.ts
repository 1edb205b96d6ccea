import { database } from "./db/client";
import { deleteExpiredIdempotencyRecords } from "./db/idempotency";
import type { Bindings } from "./lib/env";
import { dispatchPendingEvents, requeueOverdueDeliveries } from "./services/webhook-dispatch";

/** The every-minute cron: the outbox safety net, lost queue messages, and expired idempotency records. */
export function runScheduledWork(env: Bindings) {
  return Promise.all([
    dispatchPendingEvents(env),
    requeueOverdueDeliveries(env),
    deleteExpiredIdempotencyRecords(database(env.DB), Math.floor(Date.now() / 1000)),
  ]);
}
