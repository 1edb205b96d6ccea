#!/usr/bin/env node
// `npm test`: runs every suite and judges the run from vitest's exit status and its JSON report.
// The run fails when a suite's vitest exits non-zero, when a file's status is "failed", when a test
// fails, and when a test is skipped that the code does not skip on purpose (`it.skip`/`skipIf`/`todo`
// with a `//` reason on the same line). A test that did not run because its file's setup failed
// (a `beforeAll` that throws leaves every test "skipped") counts as failed, each one.
// The last lines: what failed (file, test, first line of the error), `N skipped (M on purpose)`, and
// as the very last line `N passed, N failed`. docs/testing.md describes the verdict.
//
//   node scripts/test.mjs                      every suite (node + workerd projects, then e2e/browser)
//   node scripts/test.mjs --config <file> ...  only the suites of these vitest configs (the runner's own test)
//   node scripts/test.mjs -- <vitest args>     extra arguments for every vitest, e.g. file filters
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { migratedStates } from "./lib/local-migrations.mjs";
import { judge, summarise } from "./lib/test-verdict.mjs";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const own = dash === -1 ? argv : argv.slice(0, dash);
const passThrough = dash === -1 ? [] : argv.slice(dash + 1);
const configs = own.flatMap((a, i) => (own[i - 1] === "--config" ? [a] : []));

const suites = configs.length
  ? configs.map((config) => ({ name: relative(process.cwd(), config).replace(/[^\w.-]+/g, "_"), args: ["--config", config] }))
  : [
      // The Node project (pure unit tests) and the workerd project (tests that need bindings): one vitest, one report.
      { name: "unit+workerd", args: [] },
      { name: "e2e", args: ["--config", "test/e2e/vitest.config.mts"] },
    ];

mkdirSync(".state", { recursive: true });
// The suites run one after the other, each starting when the one before it has ended. Two other modes (a later
// suite setting up while the first runs, both at once) were measured on this 2-core machine and removed: the
// first cost more than it saved, the second doubled the load and stalled an e2e lane (docs/testing.md,
// "One suite after the other").
function runSuite(suite, extraEnv = {}) {
  const report = resolve(`.state/${suite.name}-report.json`);
  const setupErrors = resolve(`.state/${suite.name}-setup-errors.json`);
  for (const f of [report, setupErrors]) rmSync(f, { force: true });
  const reporters = ["--reporter=default", "--reporter=json", `--outputFile.json=${report}`, `--reporter=${resolve("scripts/lib/setup-errors-reporter.mjs")}`];
  const vitest = ["node_modules/vitest/vitest.mjs", "run", ...suite.args, "--includeTaskLocation", ...reporters, ...passThrough];
  // WRANGLER_LOG_PATH: the workerd pool reads wrangler.toml through wrangler, whose debug log would start a file in
  // ~/.config/.wrangler/logs on every run; it goes to one file in the checkout's .state (scripts/lib/wrangler-child.mjs).
  const wranglerLog = process.env.WRANGLER_LOG_PATH ?? resolve(".state/wrangler-vitest.log");
  const child = spawn(process.execPath, vitest, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...extraEnv, WRANGLER_LOG_PATH: wranglerLog, SETUP_ERRORS_OUT: setupErrors, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? "1" : "0") } });
  child.stdout.on("data", (chunk) => process.stdout.write(chunk));
  child.stderr.on("data", (chunk) => process.stderr.write(chunk));
  const done = new Promise((resolveDone) => child.on("close", (code, signal) => resolveDone(code ?? signal)));
  return done.then((exitStatus) => {
    const read = (f) => (existsSync(f) ? JSON.parse(readFileSync(f, "utf8")) : undefined);
    return judge({
      suite: suite.name,
      exitStatus,
      report: read(report),
      setupErrors: read(setupErrors)?.files ?? {},
      unhandledErrors: read(setupErrors)?.unhandled ?? [],
      readSource: (file) => readFileSync(file, "utf8"),
    });
  });
}

const outcomes = [];
// The e2e suite's migrated state, made while the first suite runs: its first seconds keep one core busy, and
// `wrangler d1 migrations apply` (about 12 s on this machine) fits beside them. The e2e global setup copies
// it (E2E_MIGRATED_STATE) instead of migrating at its start; if it failed here, the setup migrates, and reports,
// itself (docs/testing.md, "The e2e suite's migration, made while the first suite runs").
const template = configs.length === 0 ? migrateAhead() : undefined;
try {
  for (const suite of suites) {
    const env = suite.name === "e2e" && template && (await template.ready) ? { E2E_MIGRATED_STATE: template.dir } : {};
    outcomes.push(await runSuite(suite, env));
  }
} finally {
  if (template) rmSync(template.dir, { recursive: true, force: true });
}

function migrateAhead() {
  const dir = mkdtempSync(join(tmpdir(), "rfs-e2e-template-"));
  // The e2e suite's own migration (migratedStates: `wrangler d1 migrations apply`, as decisions.md's black-box start says).
  return { dir, ready: migratedStates([dir]).then(() => true, () => false) };
}

const { lines, failed } = summarise(outcomes, process.cwd());
console.log(`\n${lines.join("\n")}`);
process.exit(failed > 0 ? 1 : 0);
