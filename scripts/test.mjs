#!/usr/bin/env node
// Runs every suite (workerd integration, then end-to-end against wrangler dev)
// and prints one line of totals for the whole run: "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const suites = [
  { name: "workerd", args: ["vitest", "run"] },
  { name: "e2e", args: ["vitest", "run", "--config", "test/e2e/vitest.config.mts"], when: "test/e2e/vitest.config.mts" },
];

mkdirSync(".state", { recursive: true });
let passed = 0;
let failed = 0;
for (const suite of suites) {
  if (suite.when && !existsSync(suite.when)) continue;
  const report = `.state/${suite.name}-report.json`;
  rmSync(report, { force: true });
  const run = spawnSync("npx", [...suite.args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
    stdio: "inherit",
  });
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, "utf8"));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    // A file that fails to load has no tests in the counts; count it as a failure.
    failed += json.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
  } else if (run.status !== 0) {
    failed += 1;
    console.error(`suite ${suite.name} produced no report (exit ${run.status})`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
