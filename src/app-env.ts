import type { Database } from "./db/client";
import type { Deps } from "./services/deps";
import type { Caller } from "./domain/identity/caller";
import type { RateLimitVerdict } from "./durable-objects/key-authority";
import type { Bindings } from "./lib/env";
import type { RoundTripCounter } from "./lib/round-trips";
import type { TraceContext } from "./lib/trace-context";

/** What the request pipeline puts on the context for every handler. */
export interface Variables {
  requestId: string;
  /** Set by the auth middleware on every authenticated route. */
  caller: Caller;
  /**
   * The key's rate-limit verdict, counted during authentication and applied by `rateLimitPerKey`; null
   * when the request was not counted (a publishable key from an origin it does not allow, which
   * `enforceOrigin` refuses first).
   */
  rateLimit: RateLimitVerdict | null;
  /** Whether the request arrived on a sandbox-only host. */
  sandboxHost: boolean;
  /**
   * True while a keyed request (Idempotency-Key) has committed no write, so a failure frees its key:
   * the 500 may then promise a safe retry (api/problem.ts). Set by the idempotency middleware.
   */
  nothingSaved?: boolean;
  /** The request's database client, set once at the top of the app, so no handler builds its own. */
  db: Database;
  /** The D1 session `db` reads through (read replication); its bookmark is handed on after a write (middleware/database.ts). */
  dbSession: D1DatabaseSession;
  /** What every service takes (db, env, clock, log), built once per request over that same client (src/services/deps.ts). */
  deps: Deps;
  /** The request's W3C trace (middleware/trace-context.ts). */
  trace: TraceContext;
  /** D1 and Durable Object round trips so far: read by Server-Timing and the request's log line alike. */
  roundTrips: RoundTripCounter;
}

/** The one Hono environment type of the app. */
export type AppEnv = { Bindings: Bindings; Variables: Variables };
