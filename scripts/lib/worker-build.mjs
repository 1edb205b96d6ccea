// The Worker built as `wrangler deploy` would upload it, once, in both forms its measurements read:
// the modules (`--outdir`, whose gzipped size bundle-budget.json limits) and the one-file upload bundle
// (`--outfile`, which `wrangler check startup --worker-bundle` profiles). One `wrangler deploy --dry-run`
// writes both, so `npm run build:check` and the deploy e2e test build the Worker once, not once per figure.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WRANGLER, wranglerEnv } from "./wrangler-child.mjs";

/**
 * Builds the Worker for `env` (nothing is uploaded) into a temporary directory.
 * @param {string} [env] the wrangler.toml environment (production by default: what is deployed)
 * @returns {{ outdir: string, bundle: string, output: string, remove: () => void }}
 */
export function buildWorker(env = "production") {
  const dir = mkdtempSync(join(tmpdir(), "rfs-worker-build-"));
  const outdir = join(dir, "modules");
  const bundle = join(dir, "worker.bundle");
  const run = spawnSync(WRANGLER, ["deploy", "--dry-run", "--outdir", outdir, "--outfile", bundle, "--env", env], { encoding: "utf8", env: wranglerEnv({ logsIn: dir }) });
  if (run.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
  }
  // `output`: what wrangler printed, the bindings the deployment would carry among it.
  return { outdir, bundle, output: `${run.stdout}${run.stderr}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `work(build)` on a build of the Worker for `env`, which is removed after, whatever `work` does.
 * @template T
 * @param {(build: { outdir: string, bundle: string }) => T} work
 * @param {string} [env]
 * @returns {T}
 */
export function withWorkerBuild(work, env) {
  const build = buildWorker(env);
  try {
    return work(build);
  } finally {
    build.remove();
  }
}
