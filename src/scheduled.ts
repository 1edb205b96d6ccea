import { database } from "./db/client";
import { deleteExpiredIdempotencyRecords } from "./db/idempotency";
import type { Bindings } from "./lib/env";
import { requeueOverdueLookups } from "./services/register-lookups";
import { dispatchPendingEvents, requeueOverdueDeliveries } from "./services/webhook-dispatch";

/** The every-minute cron: the outbox safety net, lost queue messages (webhooks and register lookups), and expired idempotency records. */
export function runScheduledWork(env: Bindings) {
  return Promise.all([
    dispatchPendingEvents(env),
    requeueOverdueDeliveries(env),
    requeueOverdueLookups(database(env.DB), env.REGISTER_LOOKUPS),
    deleteExpiredIdempotencyRecords(database(env.DB), Math.floor(Date.now() / 1000)),
  ]);
}
