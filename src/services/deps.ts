/**
 * What every service works with, built once per request (middleware/database.ts puts it on the
 * context as `c.get("deps")`), once per cron run (jobs/scheduled.ts) and once per queue batch (the
 * consumers in jobs/): the request's database client, the Worker's bindings, the clock and the logger.
 * Services take it as their first argument instead of `db`, `env` or a raw D1 binding by position,
 * so a new need (a binding, the time) reaches them without changing every caller, and a test fixes
 * the time by handing over a Deps with a fixed clock (test/helpers/deps.ts) instead of a `now` argument.
 * Services read the bucket, the queues, the signing secret and PUBLIC_URL from `env`, and the time only
 * from `clock` (`isoNow`, `epochSeconds` below): test/unit/architecture/service-clock-bindings.test.ts.
 */
import { database, type Database } from "../db/client";
import type { Bindings } from "../lib/env";
import { log, logError } from "../lib/logger";

/** The time as the service should see it: the real time, or a fixed one (a cron tick's scheduled time, a test's). */
export type Clock = () => Date;

/** The logger's two functions (src/lib/logger.ts): a structured line, and an unexpected failure. */
export interface Logger {
  log: typeof log;
  logError: typeof logError;
}

export interface Deps {
  db: Database;
  env: Bindings;
  clock: Clock;
  log: Logger;
}

const systemClock: Clock = () => new Date();

/** A clock that always answers `at`: a cron tick's scheduled time. */
export const fixedClock = (at: Date): Clock => () => new Date(at.getTime());

const logger: Logger = { log, logError };

/** The deps clock as an ISO string: what a row's timestamp column (`created_at`, `at`) takes. */
export const isoNow = ({ clock }: Pick<Deps, "clock">) => clock().toISOString();

/** The deps clock in whole seconds since the epoch: sessions, challenges and invitations expire by the second. */
export const epochSeconds = ({ clock }: Pick<Deps, "clock">) => Math.floor(clock().getTime() / 1000);

/** The one builder: the request's client when there is one (`db`), else one over `env.DB`. */
export const depsOf = (env: Bindings, options: { db?: Database; clock?: Clock; log?: Logger } = {}): Deps => ({
  db: options.db ?? database(env.DB),
  env,
  clock: options.clock ?? systemClock,
  log: options.log ?? logger,
});
