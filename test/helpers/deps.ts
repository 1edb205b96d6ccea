import { env } from "cloudflare:test";
import { fixedClock, depsOf, type Deps } from "../../src/services/deps";
import type { Bindings } from "../../src/lib/env";

/**
 * A services' Deps over the test worker's bindings, as the middleware builds one per request:
 * `now` fixes the clock (instead of a `now` argument), `env` replaces bindings (a fake queue).
 */
export function testDeps(options: { now?: Date; env?: Partial<Bindings>; environment?: "live" | "sandbox" } = {}): Deps {
  return depsOf({ ...(env as Bindings), ...options.env }, { ...(options.now ? { clock: fixedClock(options.now) } : {}), environment: options.environment });
}

/** Deps over the sandbox's own database (DB_SANDBOX, docs/capacity.md): what a sandbox key's request reads. */
export const sandboxDeps = (options: { now?: Date; env?: Partial<Bindings> } = {}) => testDeps({ ...options, environment: "sandbox" });
