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
import { databaseOf, type Database, type DataEnvironment } from "../db/client";
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
  /**
   * The client every service queries: control tables from the control database, everything else from
   * `environment`'s data database (`databaseFor`, src/db/client.ts); the seam chooses, the service does not.
   */
  db: Database;
  /** Whose data database `db` reads (absent: live, `DB`): background work it starts (a queue message) carries it on. */
  environment?: DataEnvironment;
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

/** The one builder: the request's client when there is one (`db`), else one over the bindings for `environment` (live by default). */
export const depsOf = (env: Bindings, options: { db?: Database; clock?: Clock; log?: Logger; environment?: DataEnvironment } = {}): Deps => ({
  db: options.db ?? databaseOf(env, options.environment),
  environment: options.environment ?? "live",
  env,
  clock: options.clock ?? systemClock,
  log: options.log ?? logger,
});

/**
 * The same Deps over another environment's data database, from the plain bindings (the primary): for the
 * operator API, which names the environment in its request, and the cron, which runs once per database.
 */
export const depsIn = (deps: Deps, environment: DataEnvironment): Deps =>
  (deps.environment ?? "live") === environment ? deps : { ...deps, db: databaseOf(deps.env, environment), environment };

/** Every data environment, one per database: what the cron and retention run over. */
export const DATA_ENVIRONMENTS: readonly DataEnvironment[] = ["live", "sandbox"];
