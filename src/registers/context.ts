import { registerConfigFrom, timeoutFrom, type RegisterConfig, type RegisterEnv } from "./config";
import { log } from "../lib/logger";

/** A line the adapters log: the source, what was asked and what happened; never a URL, key or number. */
export interface SourceLogEntry {
  source: string;
  operation: string;
  outcome: string;
  status?: number | null;
}

/**
 * The allowance of each register, shared by every lookup that holds the same
 * pacer (the queue consumer's: a Durable Object per register and key, rules in
 * src/registers/pacing.ts). Adapters never see it: `requestJson` asks before
 * each call and reports every answer. Asynchronous, since the state it asks
 * lives outside the isolate.
 */
export interface SourcePacer {
  /** Seconds until `source` may be called; null when a call may go now (and the call is then counted). */
  take(source: string, now: Date): Promise<number | null>;
  /** Seconds until `source` may be called, without counting a call. */
  blockedFor(source: string, now: Date): Promise<number | null>;
  /** What an answer said about the allowance (429, X-Ratelimit-* headers). */
  observe(source: string, status: number, headers: Headers, now: Date): Promise<void>;
  /** Runs `work` when fewer than N lookups of `source` are in flight. */
  inFlight<T>(source: string, work: () => Promise<T>): Promise<T>;
}

/** Everything an adapter needs from the outside world, injectable so tests point it at a local server. */
export interface SourceContext {
  fetch: typeof fetch;
  config: RegisterConfig;
  /** Per-call timeout; every HTTP call gets its own AbortSignal.timeout(timeoutMs). */
  timeoutMs: number;
  now: () => Date;
  log: (entry: SourceLogEntry) => void;
  /** The registers' allowances; absent, nothing is paced (adapter tests, the request path). */
  pacer?: SourcePacer;
}

const logAsJson = (entry: SourceLogEntry) => log("warn", "register_source", { ...entry });

export function sourceContextFrom(
  env: RegisterEnv,
  overrides: Partial<Omit<SourceContext, "config">> = {},
): SourceContext {
  return {
    fetch: overrides.fetch ?? ((input, init) => fetch(input, init)),
    config: registerConfigFrom(env),
    timeoutMs: overrides.timeoutMs ?? timeoutFrom(env),
    now: overrides.now ?? (() => new Date()),
    log: overrides.log ?? logAsJson,
    pacer: overrides.pacer,
  };
}
