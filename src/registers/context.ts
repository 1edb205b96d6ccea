import { registerConfigFrom, timeoutFrom, type RegisterConfig, type RegisterEnv } from "./config";
import { log } from "../lib/logger";

/** A line the adapters log: the source, what was asked and what happened; never a URL, key or number. */
export interface SourceLogEntry {
  source: string;
  operation: string;
  outcome: string;
  status?: number | null;
}

/** Everything an adapter needs from the outside world, injectable so tests point it at a local server. */
export interface SourceContext {
  fetch: typeof fetch;
  config: RegisterConfig;
  /** Per-call timeout; every HTTP call gets its own AbortSignal.timeout(timeoutMs). */
  timeoutMs: number;
  now: () => Date;
  log: (entry: SourceLogEntry) => void;
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
  };
}
