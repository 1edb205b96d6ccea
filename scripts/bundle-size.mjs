#!/usr/bin/env node
// `npm run build:check`: the production bundle and a cold isolate's startup against bundle-budget.json
// (`gzip_bytes`, `startup_cpu_ms`). The e2e suite checks the size the same way (test/e2e/deploy.e2e.test.ts),
// so CI fails when the bundle grows past its limit; the startup is a timing, judged here on a quiet machine. `STARTUP_RUNS` sets the runs of the startup median (5).
// `npm run build:check -- --record` also writes the measurement into bundle-budget.json and the
// figures of docs/deploy.md from it, so the guide states what the file says (test/e2e/deploy-docs.e2e.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { budget, measureBundle, withBudgetFigures } from "./lib/bundle-size.mjs";
import { measureStartup } from "./lib/startup.mjs";
import { withWorkerBuild } from "./lib/worker-build.mjs";

const limit = budget();
// One production build, measured twice: its modules' size and its upload bundle's startup.
const { size, startup } = withWorkerBuild((build) => ({ size: measureBundle(build), startup: measureStartup(build, Number(process.env.STARTUP_RUNS ?? 5)) }));
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`bundle ${kib(size.bytes)}, gzip ${kib(size.gzipBytes)}; budget gzip ${kib(limit.gzip_bytes)}`);
console.log(
  `startup ${startup.medianMs.toFixed(1)} ms active CPU (median of ${startup.runsMs.length}: ${startup.runsMs.map((m) => m.toFixed(1)).join(", ")}); budget ${limit.startup_cpu_ms} ms`,
);
if (process.argv.includes("--record")) {
  const recorded = { ...limit, measured: { date: new Date().toISOString().slice(0, 10), bytes: size.bytes, gzip_bytes: size.gzipBytes } };
  writeFileSync("bundle-budget.json", `${JSON.stringify(recorded, null, 2)}\n`);
  writeFileSync("docs/deploy.md", withBudgetFigures(readFileSync("docs/deploy.md", "utf8"), recorded));
  console.log("recorded in bundle-budget.json and docs/deploy.md");
}
let over = false;
if (size.gzipBytes > limit.gzip_bytes) {
  console.error("Over the bundle budget. Find what grew (wrangler deploy --dry-run --outdir dist --metafile) before raising it.");
  over = true;
}
if (startup.medianMs > limit.startup_cpu_ms) {
  console.error("Over the startup budget. Profile it (wrangler check startup writes worker-startup.cpuprofile) and load the module that grew on first use.");
  over = true;
}
if (over) process.exit(1);
