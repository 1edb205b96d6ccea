#!/usr/bin/env node
// Sums the self time of one or more V8 .cpuprofile files (node --cpu-prof) by function and by file:
//   node test/harness/cpu-profile-top.mjs /tmp/prof/*.cpuprofile [--top 40]
// Self time of a node = its hit count × the sampling interval (the profile's timeDeltas averaged).
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt === -1 ? 40 : Number(args[topAt + 1]);
const files = args.filter((a, i) => a !== "--top" && i !== topAt + 1);
const byFunction = new Map();
const byFile = new Map();
const byPackage = new Map();
let total = 0;
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const ms = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);
  for (const node of profile.nodes) {
    const self = (hits.get(node.id) ?? 0) * ms;
    if (self === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
    total += self;
    add(byFunction, `${functionName || "(anonymous)"}  ${where}:${lineNumber + 1}`, self);
    add(byFile, where || `(${functionName})`, self);
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ?? (where.startsWith("node:") ? "node:internals" : where ? "(project)" : `(${functionName})`);
    add(byPackage, pkg, self);
  }
}
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(ms / 1000).toFixed(2).padStart(8)} s ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${key}`);
  }
};
console.log(`total sampled: ${(total / 1000).toFixed(1)} s in ${files.length} profile(s)`);
print("by package", byPackage);
print("by file", byFile);
print("by function", byFunction);
