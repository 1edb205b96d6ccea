#!/usr/bin/env node
// `npm run bench`: starts wrangler dev on a fresh state with the rate limit
// raised, runs each scenario against the same process and prints latency
// percentiles and the ratio of each scenario's median to the baseline's.
// Ratios, not absolute numbers, are what compare across machines.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startService } from "../scripts/lib/service.mjs";
import { scenarios } from "./scenarios.mjs";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const ADMIN_TOKEN = "bench-admin-token";
const only = process.argv[2];

async function measure(run) {
  for (let i = 0; i < 20; i++) await run(i); // warm-up
  const samples = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await run(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { p50: at(0.5), p95: at(0.95), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

const persistTo = mkdtempSync(join(tmpdir(), "rfs-bench-"));
const service = await startService({
  port: 8797,
  persistTo,
  vars: { ADMIN_TOKEN, SIGNING_SECRET: "bench", RATE_LIMIT_PER_MINUTE: "1000000" },
});
try {
  const context = { url: service.url, sandboxUrl: service.sandboxUrl, adminToken: ADMIN_TOKEN };
  const rows = [];
  let baseline;
  for (const scenario of scenarios) {
    if (only && scenario.name !== "baseline" && !scenario.name.includes(only)) continue;
    const run = await scenario.prepare(context);
    const result = await measure(run);
    baseline ??= result;
    rows.push({ scenario: scenario.name, ...result, ratio: result.p50 / baseline.p50 });
  }
  console.log(`\n${ITERATIONS} sequential requests per scenario against wrangler dev; ratio = median / baseline median\n`);
  console.log("scenario".padEnd(52), "p50 ms".padStart(8), "p95 ms".padStart(8), "ratio".padStart(7));
  for (const r of rows) {
    console.log(r.scenario.padEnd(52), r.p50.toFixed(2).padStart(8), r.p95.toFixed(2).padStart(8), r.ratio.toFixed(2).padStart(7));
  }
} finally {
  service.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
