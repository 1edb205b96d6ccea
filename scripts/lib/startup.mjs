// A cold isolate's startup: `wrangler check startup` runs the Worker's top-level code locally under
// the profiler and writes a CPU profile; its active time is the sum of the non-idle samples. Ratios of
// this figure move with the machine's load, so the median of several runs is what is reported and
// judged (bundle-budget.json `startup_cpu_ms`; `npm run build:check`, `npm run bench`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WRANGLER, wranglerEnv } from "./wrangler-child.mjs";

/** Milliseconds of non-idle samples in a V8 CPU profile. */
export function activeCpuMs(profile) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  let micros = 0;
  // timeDeltas[i] is the time before sample i; the time a sample stands for is the delta to the next one.
  for (let i = 0; i < profile.samples.length - 1; i++) if (!idle.has(profile.samples[i])) micros += profile.timeDeltas[i + 1];
  return micros / 1000;
}

/** One run of `wrangler check startup` on `bundle` (an upload bundle, `buildWorker`): the active CPU of the startup phase, in ms. */
function measureStartupOnce(bundle) {
  const dir = mkdtempSync(join(tmpdir(), "rfs-startup-"));
  try {
    const outfile = join(dir, "startup.cpuprofile");
    const args = ["check", "startup", "--outfile", outfile, "--worker-bundle", bundle];
    const run = spawnSync(WRANGLER, args, { encoding: "utf8", env: wranglerEnv({ logsIn: dir }) });
    if (run.status !== 0) throw new Error(`wrangler check startup failed:\n${run.stdout}\n${run.stderr}`);
    return activeCpuMs(JSON.parse(readFileSync(outfile, "utf8")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The median of `runs` runs (default 5) on one build of the Worker (`buildWorker`'s `bundle`), with every run's figure. */
export function measureStartup({ bundle }, runs = 5) {
  const figures = Array.from({ length: runs }, () => measureStartupOnce(bundle));
  const sorted = [...figures].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)], runsMs: figures };
}
