#!/usr/bin/env node
// `node bench/cpu.mjs <instance.json>… [--rows health,enums,read,list] [--requests 400] [--c 10] [--repeat 2]`:
// the CPU each request costs the `wrangler dev` that serves it, per process, read from /proc (Linux) —
// a figure the machine's load moves far less than req/s (docs/capacity.md, "The lead read"). Each
// instance is a seeded service started by bench/serve-seeded.mjs (the JSON line it printed, in a file).
// Its process tree is found by its port: the wrangler node process, the proxy workerd that takes the
// connection, the workerd running the Worker with its D1 and Durable Objects, and esbuild. Idle CPU is
// measured for 5 s first and taken off. Instances alternate inside each repeat, so a before/after pair
// sees the same minutes. Prints ms of CPU per request, in total and per process.
import autocannon from "autocannon";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { commandLine, readRows } from "./lib/instances.mjs";

const { option, instances: readInstances } = commandLine();
const wanted = option("rows", "health,enums,read,list").split(",");
const requests = Number(option("requests", "400"));
const connections = Number(option("c", "10"));
const repeat = Number(option("repeat", "2"));
const instances = readInstances();
if (instances.length === 0) throw new Error("give at least one instance file (the JSON line bench/serve-seeded.mjs printed)");

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

function processes() {
  const all = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      all.push({ pid: Number(pid), ppid: Number(fields[1]), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS, cmd: readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ") });
    } catch {
      /* gone meanwhile */
    }
  }
  return all;
}

/** The instance's wrangler process and everything under it, each with its CPU so far and a kind. */
function tree(port) {
  const all = processes();
  const root = all.find((p) => p.cmd.includes("wrangler-dist/cli.js dev") && p.cmd.includes(`--port ${port} `));
  if (!root) throw new Error(`no wrangler dev on port ${port}`);
  const pids = new Set([root.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!pids.has(p.pid) && pids.has(p.ppid)) {
        pids.add(p.pid);
        grew = true;
      }
    }
  }
  const kind = (p) => (p.cmd.includes("workerd") ? (p.cmd.includes(`entry=127.0.0.1:${port} `) ? "workerd (proxy)" : "workerd (Worker, D1, DOs)") : p.cmd.includes("esbuild") ? "esbuild" : "wrangler (node)");
  return new Map(all.filter((p) => pids.has(p.pid)).map((p) => [p.pid, { ms: p.ms, kind: kind(p) }]));
}

const drive = (url, row, amount) =>
  new Promise((resolve, reject) => autocannon({ url: `${url}${row.path}`, connections, amount, headers: row.headers ?? {} }, (error, result) => (error ? reject(error) : resolve(result))));

const byKind = (before, after, idlePerMs, wallMs, count) => {
  const out = {};
  for (const [pid, p] of after) {
    const spent = p.ms - (before.get(pid)?.ms ?? p.ms) - (idlePerMs.get(pid) ?? 0) * wallMs;
    out[p.kind] = (out[p.kind] ?? 0) + spent / count;
  }
  return out;
};

const results = new Map();
console.log(`load average at the start: ${loadavg().map((l) => l.toFixed(2)).join(", ")}`);
for (const instance of instances) {
  const port = new URL(instance.url).port;
  const start = tree(port);
  const started = performance.now();
  await new Promise((r) => setTimeout(r, 5000));
  const end = tree(port);
  const idleMs = performance.now() - started;
  instance.idle = new Map([...end].map(([pid, p]) => [pid, (p.ms - (start.get(pid)?.ms ?? p.ms)) / idleMs]));
}
for (let round = 1; round <= repeat; round++) {
  for (const name of wanted) {
    for (const instance of round % 2 ? instances : [...instances].reverse()) {
      const row = readRows(instance)[name];
      if (!row) throw new Error(`unknown row ${name}`);
      await drive(instance.url, row, 20);
      const port = new URL(instance.url).port;
      const before = tree(port);
      const started = performance.now();
      const result = await drive(instance.url, row, requests);
      const wallMs = performance.now() - started;
      const kinds = byKind(before, tree(port), instance.idle, wallMs, result.requests.total);
      const key = `${instance.name}|${name}`;
      results.set(key, [...(results.get(key) ?? []), { kinds, total: Object.values(kinds).reduce((a, b) => a + b, 0), rps: (result.requests.total * 1000) / wallMs, non2xx: result.non2xx }]);
    }
  }
}
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(", ")}; ${requests} requests per run at c=${connections}, ${repeat} runs; ms of CPU per request (each run)`);
for (const instance of instances) {
  for (const name of wanted) {
    const runs = results.get(`${instance.name}|${name}`);
    const kinds = Object.keys(runs[0].kinds).sort();
    const cells = kinds.map((k) => `${k} ${runs.map((r) => (r.kinds[k] ?? 0).toFixed(2)).join("/")}`);
    console.log(`${instance.name.padEnd(14)} ${name.padEnd(7)} total ${runs.map((r) => r.total.toFixed(2)).join("/")}  [${cells.join(", ")}]  non-2xx ${runs.reduce((n, r) => n + r.non2xx, 0)}`);
  }
}
