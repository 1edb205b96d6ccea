#!/usr/bin/env node
// Rewrites test/e2e/durations.json (seconds per e2e/browser file, which test/e2e/sequencer.ts starts
// longest first) from a vitest JSON report of the e2e run: `.state/e2e-report.json`, which `npm test`
// writes, or the path given. Run it after a full e2e run when files were added or got slower.
import { readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";

const report = JSON.parse(readFileSync(resolve(process.argv[2] ?? ".state/e2e-report.json"), "utf8"));
const seconds = Object.fromEntries(
  report.testResults
    .map((f) => [relative(process.cwd(), f.name).split("\\").join("/"), Math.round((f.endTime - f.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync("test/e2e/durations.json", `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`test/e2e/durations.json: ${Object.keys(seconds).length} files`);
