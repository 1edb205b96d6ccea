import { database } from "./db/client";
import { deleteExpiredIdempotencyRecords } from "./db/idempotency";
import type { Bindings } from "./lib/env";
import { requeueOverdueLookups } from "./services/register-lookups";
import { missingSecrets } from "./lib/signing-secret";
import { dispatchPendingEvents, requeueOverdueDeliveries } from "./services/webhook-dispatch";

/** The every-minute cron: the outbox safety net, lost queue messages (webhooks and register lookups), and expired idempotency records. */
export function runScheduledWork(env: Bindings) {
  const cleanUp = deleteExpiredIdempotencyRecords(database(env.DB), Math.floor(Date.now() / 1000));
  // Register lookups carry no secret of the service's own: their safety net runs whatever is configured.
  const lookups = requeueOverdueLookups(database(env.DB), env.REGISTER_LOOKUPS);
  const missing = missingSecrets(env);
  if (missing.length > 0) {
    // Webhook bodies carry signed links and deliveries are signed with sealed secrets: nothing can go out until it is set.
    console.error(`service_misconfigured: the secret ${missing.join(", ")} is not set; webhook dispatch is paused until \`wrangler secret put ${missing[0]}\`.`);
    return Promise.all([cleanUp, lookups]);
  }
  return Promise.all([dispatchPendingEvents(env), requeueOverdueDeliveries(env), lookups, cleanUp]);
}
