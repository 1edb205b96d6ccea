#!/usr/bin/env node
// `npm run build:check`: the production bundle against bundle-budget.json. The
// e2e suite runs the same check (test/e2e/deploy.e2e.test.ts), so CI fails over budget.
// `npm run build:check -- --record` also writes the measurement into bundle-budget.json and the
// figures of docs/deploy.md from it, so the guide states what the file says (test/e2e/deploy-docs.e2e.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { budget, measureBundle, withBudgetFigures } from "./lib/bundle-size.mjs";

const limit = budget();
const size = measureBundle();
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`bundle ${kib(size.bytes)}, gzip ${kib(size.gzipBytes)}; budget gzip ${kib(limit.gzip_bytes)}`);
if (process.argv.includes("--record")) {
  const recorded = { ...limit, measured: { date: new Date().toISOString().slice(0, 10), bytes: size.bytes, gzip_bytes: size.gzipBytes } };
  writeFileSync("bundle-budget.json", `${JSON.stringify(recorded, null, 2)}\n`);
  writeFileSync("docs/deploy.md", withBudgetFigures(readFileSync("docs/deploy.md", "utf8"), recorded));
  console.log("recorded in bundle-budget.json and docs/deploy.md");
}
if (size.gzipBytes > limit.gzip_bytes) {
  console.error("Over the bundle budget. Find what grew (wrangler deploy --dry-run --outdir dist --metafile) before raising it.");
  process.exit(1);
}
