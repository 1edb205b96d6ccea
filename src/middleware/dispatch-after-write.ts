import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { uncounted } from "../lib/round-trips";
import { dispatchSoon, wroteOutboxEvents } from "../services/webhooks/dispatch";
import { deliverFirstAttempts } from "../services/webhooks/first-attempt";
import { depsOf } from "../services/deps";
import { logError } from "../lib/logger";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Webhooks are a low-latency notification: after a successful write, the
 * events it put in the outbox are turned into deliveries at once, after the
 * response has gone, and their first attempt is made there and then (see
 * services/webhooks/first-attempt.ts). The queue and the every-minute cron
 * remain the safety net, so a failure here delays a delivery but never loses it.
 *
 * Concurrent writes share one run per isolate (`dispatchSoon`): a write that
 * finds a run in flight asks it for one more pass instead of starting a
 * second over the same outbox.
 *
 * A write that put no event in the outbox (a lead opened or amended, a key
 * issued) runs no dispatch: the request's round-trip counter knows which tables
 * its statements inserted into (lib/round-trips.ts). Events left over from
 * elsewhere (the hub, a dispatch that failed) wait for the cron, as before.
 */
export const dispatchAfterWrite = dispatchAfterWriteOf<AppEnv>((c) => Boolean(c.get("caller")));

/** The same, for a sub-app that knows in its own way whether the request was an authenticated write (the portal's session). */
export function dispatchAfterWriteOf<E extends { Bindings: AppEnv["Bindings"] }>(authenticated: (c: Context<E>) => boolean) {
  return createMiddleware<E>(async (c, next) => {
    await next();
    const vars = c.var as Partial<AppEnv["Variables"]>;
    if (c.env.DISPATCH_AFTER_WRITE === "true" && MUTATING.has(c.req.method) && c.res.status < 400 && authenticated(c) && wroteOutboxEvents(vars.roundTrips?.insertedInto)) {
      // After the response: not part of this request's Server-Timing.
      const env = { ...c.env, DB: uncounted(c.env.DB), DB_SANDBOX: uncounted(c.env.DB_SANDBOX) };
      const requestId = vars.requestId;
      // One run at a time per isolate: a write that finds one in flight asks it for another pass (dispatchSoon).
      // A Deps of its own, one for the dispatch and its first attempts: the after-response work counts no round trips of the request.
      // Over the caller's environment's database, where the write put its events (docs/capacity.md).
      const deps = depsOf(env, { environment: vars.deps?.environment });
      c.executionCtx.waitUntil(dispatchSoon(deps, (ids) => deliverFirstAttempts(deps, ids), (error) => logError("webhook_dispatch_failed", error, { request_id: requestId }, "warn")));
    }
  });
}
