#!/usr/bin/env node
// `npm run test:durations [results.json]`: writes test/harness/file-durations.json, the seconds each file of
// the first `npm test` invocation (vitest.config.mts) took in the last run, from vitest's own results cache
// (node_modules/.vite/vitest/<hash>/results.json, written after every `vitest run`; its duration counts a
// file's hooks, which the JSON report's start and end times leave out). vitest.config.mts hands the longest
// files to the workers first from this table (test/harness/duration-order.mts); refresh it after a whole run
// when files are added or grow (docs/testing.md). Files of the e2e configuration are left out.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { RESULTS_CACHE, resultsCachePath, secondsByFile } from "./lib/results-cache.mjs";

const cachePath = resultsCachePath(process.argv[2]);
if (!cachePath) {
  console.error(`test:durations: no vitest results cache under ${RESULTS_CACHE}; run \`npm test\` (or \`npx vitest run\`) first, or name the file`);
  process.exit(2);
}
const PROJECTS = new Set(["node", "workerd"]);
// A file that failed is left out (no previous figures given): its duration may be cut short.
const sorted = secondsByFile(JSON.parse(readFileSync(cachePath, "utf8")), { takes: (project) => PROJECTS.has(project), exists: (file) => existsSync(resolve(file)) });
const out = {
  about: "Seconds per test file of `vitest run` (vitest.config.mts), from vitest's results cache; read by test/harness/duration-order.mts, written by `npm run test:durations`.",
  measured: new Date().toISOString().slice(0, 10),
  files: sorted,
};
writeFileSync(resolve("test/harness/file-durations.json"), `${JSON.stringify(out, null, 2)}\n`);
console.log(`test/harness/file-durations.json: ${Object.keys(sorted).length} files from ${cachePath}`);
