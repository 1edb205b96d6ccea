// vitest's own results cache (node_modules/.vite/vitest/<hash>/results.json, written after every `vitest
// run`): seconds per test file, hooks included (the JSON report's start and end times leave them out). Read by
// `npm run test:durations` (scripts/file-durations.mjs, the first invocation's table) and
// scripts/e2e-durations.mjs (the e2e lanes' table).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const RESULTS_CACHE = "node_modules/.vite/vitest";

/** The results file named on the command line, else the first one under RESULTS_CACHE, else undefined. @param {string | undefined} given */
export function resultsCachePath(given) {
  if (given) return given;
  if (!existsSync(RESULTS_CACHE)) return undefined;
  return readdirSync(RESULTS_CACHE).map((d) => join(RESULTS_CACHE, d, "results.json")).find((f) => existsSync(f));
}

/**
 * Seconds per file (one decimal) of the results whose key (`project:path`; a configuration without projects
 * has the project "") `takes`, sorted by path. A file that failed keeps its figure in `previous` (a failure
 * can end a file early), or is left out; so is a file `exists` says is gone.
 * @param {{ results?: [string, { duration?: number; failed?: boolean }][] }} cache
 * @param {{ takes: (project: string, file: string) => boolean, exists: (file: string) => boolean, previous?: Record<string, number> }} options
 * @returns {Record<string, number>}
 */
export function secondsByFile(cache, { takes, exists, previous = {} }) {
  const seconds = {};
  for (const [key, result] of cache.results ?? []) {
    const at = key.indexOf(":");
    const [project, file] = [key.slice(0, at), key.slice(at + 1)];
    if (!takes(project, file) || !exists(file)) continue;
    if (result.failed || typeof result.duration !== "number") {
      if (file in previous) seconds[file] = previous[file];
      continue;
    }
    seconds[file] = Math.round(result.duration / 100) / 10;
  }
  return Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
}
