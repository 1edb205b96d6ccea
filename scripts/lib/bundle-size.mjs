// The Worker bundle as `wrangler deploy` would upload it, measured against the
// budget in bundle-budget.json (gzip, which is what Cloudflare's size limit counts).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export const budget = () => JSON.parse(readFileSync("bundle-budget.json", "utf8"));

/** Builds with `wrangler deploy --dry-run --outdir` (nothing is uploaded) and sums the modules it would upload. */
export function measureBundle(env = "production") {
  const outdir = mkdtempSync(join(tmpdir(), "rfs-bundle-"));
  try {
    const run = spawnSync("node_modules/.bin/wrangler", ["deploy", "--dry-run", "--outdir", outdir, "--env", env], {
      encoding: "utf8",
      env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    });
    if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
    const modules = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f));
    let bytes = 0;
    let gzipBytes = 0;
    for (const file of modules) {
      const content = readFileSync(join(outdir, file));
      bytes += statSync(join(outdir, file)).size;
      gzipBytes += gzipSync(content, { level: 9 }).length;
    }
    return { modules, bytes, gzipBytes };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
