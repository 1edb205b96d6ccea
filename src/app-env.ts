import type { D1Client, Database, DataEnvironment } from "./db/client";
import type { Deps } from "./services/deps";
import type { Caller } from "./domain/identity/caller";
import type { RateLimitVerdict } from "./durable-objects/key-authority";
import type { Bindings } from "./lib/env";
import type { RoundTripCounter } from "./lib/round-trips";
import type { TraceContext } from "./lib/trace-context";

/** One database's D1 session of the request, opened at its first statement (middleware/database.ts). */
export interface RequestSession {
  client: D1Client;
  /** Whether a statement has opened it. */
  opened(): boolean;
  bookmark(): string | null;
}

/** The control database's session and the caller's environment's data database's (the same one for live). */
export interface RequestSessions {
  environment: DataEnvironment;
  control: RequestSession;
  data: RequestSession;
}

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
  /**
   * The D1 sessions `db` reads through (read replication): the control database's and the caller's
   * environment's data database's (one session when that is live); their bookmarks are handed on after a write (middleware/database.ts).
   */
  dbSessions: RequestSessions;
  /** What every service takes (db, env, clock, log), built once per request over that same client (src/services/deps.ts). */
  deps: Deps;
  /** The request's W3C trace (middleware/trace-context.ts). */
  trace: TraceContext;
  /** D1 and Durable Object round trips so far: read by Server-Timing and the request's log line alike. */
  roundTrips: RoundTripCounter;
}

/** The one Hono environment type of the app. */
export type AppEnv = { Bindings: Bindings; Variables: Variables };
