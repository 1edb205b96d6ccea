#!/usr/bin/env node
// `npm run test:durations [results.json]`: writes test/harness/file-durations.json, the seconds each file of
// the first `npm test` invocation (vitest.config.mts) took in the last run, from vitest's own results cache
// (node_modules/.vite/vitest/<hash>/results.json, written after every `vitest run`; its duration counts a
// file's hooks, which the JSON report's start and end times leave out). vitest.config.mts hands the longest
// files to the workers first from this table (test/harness/duration-order.mts); refresh it after a whole run
// when files are added or grow (docs/testing.md). Files of the e2e configuration are left out.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const CACHE = "node_modules/.vite/vitest";
const given = process.argv[2];
const cachePath = given ?? (existsSync(CACHE) ? readdirSync(CACHE).map((d) => join(CACHE, d, "results.json")).find((f) => existsSync(f)) : undefined);
if (!cachePath) {
  console.error(`test:durations: no vitest results cache under ${CACHE}; run \`npm test\` (or \`npx vitest run\`) first, or name the file`);
  process.exit(2);
}
const PROJECTS = new Set(["node", "workerd"]);
const files = {};
for (const [key, result] of JSON.parse(readFileSync(cachePath, "utf8")).results ?? []) {
  const at = key.indexOf(":");
  const [project, file] = [key.slice(0, at), key.slice(at + 1)];
  if (!PROJECTS.has(project) || result.failed || !existsSync(resolve(file))) continue;
  files[file] = Math.round(result.duration / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
const out = {
  about: "Seconds per test file of `vitest run` (vitest.config.mts), from vitest's results cache; read by test/harness/duration-order.mts, written by `npm run test:durations`.",
  measured: new Date().toISOString().slice(0, 10),
  files: sorted,
};
writeFileSync(resolve("test/harness/file-durations.json"), `${JSON.stringify(out, null, 2)}\n`);
console.log(`test/harness/file-durations.json: ${Object.keys(sorted).length} files from ${cachePath}`);
