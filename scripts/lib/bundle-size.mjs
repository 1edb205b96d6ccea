// The Worker bundle as `wrangler deploy` would upload it, measured against the
// budget in bundle-budget.json (gzip, which is what Cloudflare's size limit counts).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export const budget = () => JSON.parse(readFileSync("bundle-budget.json", "utf8"));

/** Sums the modules a build (scripts/lib/worker-build.mjs `buildWorker`) would upload, raw and gzipped. */
export function measureBundle({ outdir }) {
  const modules = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f));
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of modules) {
    const content = readFileSync(join(outdir, file));
    bytes += statSync(join(outdir, file)).size;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { modules, bytes, gzipBytes };
}

const kib = (n) => `${Math.round(n / 1024)} KiB`;
const mib = (n) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
const START = "<!-- bundle-budget.json: written by `npm run build:check -- --record`; do not edit by hand -->";
const END = "<!-- end bundle-budget.json -->";

/** The figures docs/deploy.md states, from bundle-budget.json alone (the budget and the last recorded measurement). */
export function budgetFigures(b) {
  const m = b.measured;
  const measured = m
    ? `Last measured on ${m.date}: ${mib(m.bytes)} raw, ${kib(m.gzip_bytes)} gzipped, against a budget of ${kib(b.gzip_bytes)} gzipped.`
    : `Budget: ${kib(b.gzip_bytes)} gzipped.`;
  return `${START}\n${measured}\n${END}`;
}

/** docs/deploy.md with its figures block replaced by the one bundle-budget.json gives. */
export function withBudgetFigures(markdown, b) {
  const from = markdown.indexOf(START);
  const to = markdown.indexOf(END);
  if (from < 0 || to < from) throw new Error("docs/deploy.md has no bundle-budget.json block");
  return markdown.slice(0, from) + budgetFigures(b) + markdown.slice(to + END.length);
}
