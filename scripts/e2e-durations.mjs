#!/usr/bin/env node
// Rewrites test/e2e/durations.json (seconds per e2e/browser file, which test/e2e/sequencer.ts starts
// longest first) from vitest's own results cache (node_modules/.vite/vitest/<hash>/results.json, written
// after every `vitest run`), or the results file given. The cache's duration counts a file's hooks; the
// JSON report's start and end times, which this read before, leave them out, so a file that starts a
// service in beforeAll (the README tour, dev-log-tokens) was listed at a second and started last. Run it
// after a whole e2e run (`npm test`, or `npx vitest run --config test/e2e/vitest.config.mts`) when files
// were added or got slower. A file that failed keeps the figure it had (a failure can end it early).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RESULTS_CACHE, resultsCachePath, secondsByFile } from "./lib/results-cache.mjs";

const TABLE = "test/e2e/durations.json";
const E2E_FILE = /^test\/(e2e\/.*\.e2e|browser\/.*\.browser)\.test\.ts$/;

/**
 * Seconds per e2e and browser file from a vitest results cache (the e2e configuration has no project name,
 * so its keys start with ":"), sorted by path; a failed file keeps its figure in `previous`.
 * @param {{ results?: [string, { duration?: number; failed?: boolean }][] }} cache
 * @param {Record<string, number>} previous the table as it was
 * @param {(file: string) => boolean} exists
 * @returns {Record<string, number>}
 */
export function e2eSeconds(cache, previous, exists) {
  return secondsByFile(cache, { takes: (project, file) => project === "" && E2E_FILE.test(file), exists, previous });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const cachePath = resultsCachePath(process.argv[2]);
  if (!cachePath) {
    console.error(`e2e-durations: no vitest results cache under ${RESULTS_CACHE}; run the e2e suite first, or name the file`);
    process.exit(2);
  }
  const previous = existsSync(TABLE) ? JSON.parse(readFileSync(TABLE, "utf8")) : {};
  const seconds = e2eSeconds(JSON.parse(readFileSync(cachePath, "utf8")), previous, (file) => existsSync(resolve(file)));
  writeFileSync(TABLE, `${JSON.stringify(seconds, null, 2)}\n`);
  console.log(`${TABLE}: ${Object.keys(seconds).length} files from ${cachePath}`);
}
