// A cold isolate's startup: `wrangler check startup` runs the Worker's top-level code locally under
// the profiler and writes a CPU profile; its active time is the sum of the non-idle samples. Ratios of
// this figure move with the machine's load, so the median of several runs is what is reported and
// judged (bundle-budget.json `startup_cpu_ms`; `npm run build:check`, `npm run bench`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Milliseconds of non-idle samples in a V8 CPU profile. */
export function activeCpuMs(profile) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  let micros = 0;
  // timeDeltas[i] is the time before sample i; the time a sample stands for is the delta to the next one.
  for (let i = 0; i < profile.samples.length - 1; i++) if (!idle.has(profile.samples[i])) micros += profile.timeDeltas[i + 1];
  return micros / 1000;
}

const WRANGLER_ENV = { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };

/**
 * The bundle `wrangler check startup` profiles, built once: without `--worker-bundle` every run of it
 * builds the Worker again (`wrangler deploy --dry-run --outfile`, esbuild, in its own process), so
 * measureStartup builds it here, exactly as that command would, and hands the same file to each run.
 */
export function buildStartupBundle(dir) {
  const bundle = join(dir, "worker.bundle");
  const run = spawnSync("node_modules/.bin/wrangler", ["deploy", "--dry-run", "--outfile", bundle], { encoding: "utf8", env: WRANGLER_ENV });
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run --outfile failed:\n${run.stdout}\n${run.stderr}`);
  return bundle;
}

/** One run of `wrangler check startup` (on `bundle` when given, else on a build of its own): the active CPU of the startup phase, in ms. */
export function measureStartupOnce(bundle) {
  const dir = mkdtempSync(join(tmpdir(), "rfs-startup-"));
  try {
    const outfile = join(dir, "startup.cpuprofile");
    const args = ["check", "startup", "--outfile", outfile, ...(bundle ? ["--worker-bundle", bundle] : [])];
    const run = spawnSync("node_modules/.bin/wrangler", args, { encoding: "utf8", env: WRANGLER_ENV });
    if (run.status !== 0) throw new Error(`wrangler check startup failed:\n${run.stdout}\n${run.stderr}`);
    return activeCpuMs(JSON.parse(readFileSync(outfile, "utf8")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The median of `runs` runs (default 5) on one build of the Worker, with every run's figure. */
export function measureStartup(runs = 5) {
  const dir = mkdtempSync(join(tmpdir(), "rfs-startup-bundle-"));
  try {
    const bundle = buildStartupBundle(dir);
    const figures = Array.from({ length: runs }, () => measureStartupOnce(bundle));
    const sorted = [...figures].sort((a, b) => a - b);
    return { medianMs: sorted[Math.floor(sorted.length / 2)], runsMs: figures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
