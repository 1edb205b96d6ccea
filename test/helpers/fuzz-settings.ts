import { env } from "cloudflare:workers";
import type { Parameters } from "fast-check";

/**
 * Settings of every property-based test: seeded and reproducible. A failure
 * prints its seed and path (fast-check's report); `FUZZ_SEED=<seed> npx vitest
 * run <file>` replays it. `FUZZ_RUNS` raises the count (`npm run fuzz`).
 */
export function fuzzParameters(defaultRuns: number): Parameters<unknown> & { numRuns: number } {
  const seed = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : Date.now() ^ (Math.random() * 0x100000000);
  const numRuns = env.FUZZ_RUNS ? Number(env.FUZZ_RUNS) : defaultRuns;
  return { seed, numRuns, endOnFailure: true, verbose: 1 };
}

/** Time a test may take for `runs` runs of about `perRunMs` each; a hang guard, never a timing assertion. */
export const fuzzTimeout = (runs: number, perRunMs: number) => Math.max(30_000, runs * perRunMs * 3);
