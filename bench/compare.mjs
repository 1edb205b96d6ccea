#!/usr/bin/env node
// `node bench/compare.mjs <instance.json>… [--rows submit,read,enums,health] [--rounds 3] [--seconds 5]`:
// drives a few of the bench's rows against several seeded instances (each started with
// bench/serve-seeded.mjs, whose printed JSON line is the file given), alternating instance by
// instance inside every round, so a before/after pair sees the same minutes of a shared machine's
// load. Prints, per instance and row, the median req/s and p50 at c=1 and c=10, the ratio to
// /health of the same instance, and the load average as the rounds began and ended.
import autocannon from "autocannon";
import { loadavg } from "node:os";
import { commandLine, readRows } from "./lib/instances.mjs";

const { option, instances: readInstances } = commandLine();
const wanted = option("rows", "health,enums,read,submit").split(",");
const rounds = Number(option("rounds", "3"));
const seconds = Number(option("seconds", "5"));
const concurrencies = option("c", "1,10").split(",").map(Number);
const instances = readInstances();

function rowsOf(instance) {
  let next = 0;
  const partner = { "X-API-Key": instance.partnerKey };
  const all = {
    ...readRows(instance),
    submit: {
      method: "POST",
      headers: partner,
      nextPath: () => {
        if (next >= instance.drafts.length) throw new Error(`${instance.name}: all drafts submitted`);
        return `/partner/v1/leads/${instance.drafts[next++]}/submit`;
      },
    },
  };
  return Object.fromEntries(wanted.map((name) => [name, all[name]]));
}

function load(url, row, connections) {
  const request = { method: row.method, headers: row.headers ?? {} };
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${url}${row.path ?? "/"}`,
        connections,
        duration: seconds,
        ...request,
        requests: [row.nextPath ? { ...request, setupRequest: (req) => ({ ...req, path: row.nextPath() }) } : { ...request, path: row.path }],
      },
      (error, result) => (error ? reject(error) : resolve({ rps: result.requests.total / Math.max((result.finish - result.start) / 1000, 0.001), p50: result.latency.p50, non2xx: result.non2xx })),
    ),
  );
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const rows = new Map(instances.map((i) => [i.name, rowsOf(i)]));
const runs = new Map();
const loadAtStart = loadavg().map((l) => l.toFixed(2));
for (let round = 1; round <= rounds; round++) {
  for (const name of wanted) {
    for (const c of concurrencies) {
      for (const instance of round % 2 ? instances : [...instances].reverse()) {
        const key = `${instance.name}|${name}|${c}`;
        runs.set(key, [...(runs.get(key) ?? []), await load(instance.url, rows.get(instance.name)[name], c)]);
      }
    }
  }
}
const loadAtEnd = loadavg().map((l) => l.toFixed(2));
console.log(`load average (1, 5, 15 min): ${loadAtStart.join(", ")} at the start, ${loadAtEnd.join(", ")} at the end; ${rounds} rounds of ${seconds} s, medians`);
console.log(["instance".padEnd(22), "row".padEnd(8), ...concurrencies.flatMap((c) => [`c=${c} req/s`, `p50`, `ratio`]), "non-2xx"].join("\t"));
for (const instance of instances) {
  for (const name of wanted) {
    const cells = [];
    let non2xx = 0;
    for (const c of concurrencies) {
      const list = runs.get(`${instance.name}|${name}|${c}`);
      const health = runs.get(`${instance.name}|health|${c}`);
      const rps = median(list.map((r) => r.rps));
      cells.push(rps.toFixed(1), median(list.map((r) => r.p50)).toFixed(1), health ? (rps / median(health.map((r) => r.rps))).toFixed(2) : "");
      non2xx += list.reduce((n, r) => n + r.non2xx, 0);
    }
    console.log([instance.name.padEnd(22), name.padEnd(8), ...cells, non2xx].join("\t"));
  }
}
