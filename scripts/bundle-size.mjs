#!/usr/bin/env node
// `npm run build:check`: the production bundle against bundle-budget.json. The
// e2e suite runs the same check (test/e2e/deploy.e2e.test.ts), so CI fails over budget.
import { budget, measureBundle } from "./lib/bundle-size.mjs";

const limit = budget();
const size = measureBundle();
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`bundle ${kib(size.bytes)}, gzip ${kib(size.gzipBytes)}; budget gzip ${kib(limit.gzip_bytes)}`);
if (size.gzipBytes > limit.gzip_bytes) {
  console.error("Over the bundle budget. Find what grew (wrangler deploy --dry-run --outdir dist --metafile) before raising it.");
  process.exit(1);
}
