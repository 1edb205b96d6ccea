import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { countD1, countDurableObjects, newRoundTripCounter, serverTimingHeader } from "../lib/round-trips";

/**
 * Every response says where its time went: `Server-Timing` carries the D1
 * round trips, the Durable Object calls and their durations. Mounted first, it
 * hands the rest of the request bindings that count themselves; work left in
 * `waitUntil` after the response is not part of the figure. The same counter
 * feeds the request's log line (middleware/request-log.ts).
 */
export const serverTiming = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  const counter = newRoundTripCounter();
  c.set("roundTrips", counter);
  c.env = { ...c.env, DB: countD1(c.env.DB, counter), DB_SANDBOX: countD1(c.env.DB_SANDBOX, counter), KEY_AUTHORITY: countDurableObjects(c.env.KEY_AUTHORITY, counter) };
  await next();
  c.res.headers.set("Server-Timing", serverTimingHeader(counter, performance.now() - started));
});
