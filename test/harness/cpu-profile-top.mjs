#!/usr/bin/env node
// Sums the self time of one or more V8 .cpuprofile files (node --cpu-prof, or test/harness/workerd-profile.mjs)
// by area, package, file and function:
//   node test/harness/cpu-profile-top.mjs /tmp/prof/*.cpuprofile [--top 40] [--only PREFIX]
// Self time of a node = its samples × the profile's median gap between samples (its sampling interval).
// "(idle)" is reported apart and left out of the shares: a runtime's workers each sample their idle time.
// Files named <worker>-<n>.cpuprofile (workerd-profile.mjs's chunks) are also summed by worker; --only keeps the
// files whose name starts with PREFIX (e.g. --only core:user, the test runner's worker: the app and the tests).
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const args = process.argv.slice(2);
const valueOf = (name, fallback) => (args.indexOf(name) === -1 ? fallback : args[args.indexOf(name) + 1]);
const top = Number(valueOf("--top", "40"));
const only = valueOf("--only", "");
// --inclusive a,b: also the time of the samples whose stack holds a function named a (or b), callees included.
const inclusiveNames = valueOf("--inclusive", "").split(",").filter(Boolean);
const inclusive = new Map(inclusiveNames.map((n) => [n, 0]));
const flagValues = new Set(["--top", "--only", "--inclusive"].flatMap((f) => (args.indexOf(f) === -1 ? [] : [args.indexOf(f), args.indexOf(f) + 1])));
const files = args.filter((_, i) => !flagValues.has(i)).filter((f) => basename(f).startsWith(only));
const byArea = new Map();
const byWorker = new Map();
const byFunction = new Map();
const byFile = new Map();
const byPackage = new Map();
let total = 0;
let idle = 0;
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
const root = process.cwd().replace(/^\//, "") + "/";

/** Where a frame's code lives: the app, the test helpers, a test file, a package, the pool, miniflare's own workers. */
function areaOf(where, functionName) {
  if (where === "") return `(${functionName || "native"})`;
  if (where.startsWith("src/")) return `app: ${where.split("/").slice(0, 2).join("/")}/`;
  if (where.startsWith("test/helpers/")) return "test/helpers/";
  if (where.startsWith("test/")) return "test files (test/ outside helpers)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1];
  if (pkg) return `package: ${pkg}`;
  if (where.startsWith("node:") || where.startsWith("node-internal:")) return "node:internals";
  if (where.startsWith("cloudflare") || where.startsWith("workerd")) return "workerd built-ins";
  return `other: ${where}`;
}

const profiles = files.map((file) => [file, JSON.parse(readFileSync(file, "utf8"))]);
// workerd samples an isolate only while it runs (every --interval µs, ~1.1 ms at 1000): the gaps between samples are
// time spent in other isolates or waiting, so a sample counts for the sampling interval (the median of the gaps under
// 10 ms, of all the profiles), not for the gap after it. A worker that barely ran has one or two samples a chunk.
const deltas = profiles.flatMap(([, p]) => (p.timeDeltas ?? []).filter((d) => d > 0 && d < 10_000)).sort((a, b) => a - b);
const ms = deltas.length > 0 ? deltas[Math.floor(deltas.length / 2)] / 1000 : 1;
for (const [file, profile] of profiles) {
  const worker = /^(.*)-\d+\.cpuprofile$/.exec(basename(file))?.[1] ?? basename(file);
  const selfMs = new Map();
  for (const id of profile.samples) selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
  if (inclusive.size > 0) {
    const parent = new Map();
    const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const [id, t] of selfMs) {
      const seen = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const name = nodeById.get(at).callFrame.functionName;
        if (inclusive.has(name) && !seen.has(name)) {
          seen.add(name);
          inclusive.set(name, inclusive.get(name) + t);
        }
      }
    }
  }
  for (const node of profile.nodes) {
    const self = selfMs.get(node.id) ?? 0;
    if (self === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") {
      idle += self;
      continue;
    }
    const where = url
      .replace(/^file:\/\//, "")
      .replace(/^\//, "")
      .replace(root, "")
      .replace(/\?mf_vitest_no_cjs_esm_shim$/, "");
    total += self;
    add(byWorker, worker, self);
    add(byArea, areaOf(where, functionName), self);
    add(byFunction, `${functionName || "(anonymous)"}  ${where}:${lineNumber + 1}`, self);
    add(byFile, where || `(${functionName})`, self);
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ?? (where.startsWith("node:") ? "node:internals" : where ? "(project or runtime)" : `(${functionName})`);
    add(byPackage, pkg, self);
  }
}
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(ms / 1000).toFixed(2).padStart(8)} s ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${key}`);
  }
};
console.log(`total sampled: ${(total / 1000).toFixed(1)} s busy (+ ${(idle / 1000).toFixed(1)} s idle, left out) in ${files.length} profile(s)`);
if (inclusive.size > 0) print("inclusive (the function and what it calls)", inclusive);
if (byWorker.size > 1) print("by worker", byWorker);
print("by area", byArea);
print("by package", byPackage);
print("by file", byFile);
print("by function", byFunction);
