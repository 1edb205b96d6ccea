#!/usr/bin/env node
// A V8 CPU profile of the workerd runtime that runs test files (not of vitest's main process):
//   node test/harness/workerd-profile.mjs [--out DIR] [--port 9339] [--chunk 3] [--interval 1000] [--project workerd]
//     [--workers core:user,d1:db|all] [--top 40] -- <files…>
// It starts `vitest run --project P --inspect=127.0.0.1:PORT --no-file-parallelism --maxWorkers=1 <files>` (vitest-pool-workers then gives the
// runtime an inspector, which miniflare proxies per worker at ws://127.0.0.1:PORT/<worker>, listed at /json), connects
// over the DevTools protocol to every worker it lists, and runs `Profiler.start`/`Profiler.stop` in chunks of
// --chunk seconds, writing each chunk to DIR/<worker>-<n>.cpuprofile: the pool disposes the runtime as soon as the last
// file ends, so a profile stopped "at the end" would be lost with it; only the last chunk (at most --chunk seconds,
// mostly the shutdown) is. --interval is V8's sampling interval in µs. At the end it prints the self time summed by
// area, package, file and function (test/harness/cpu-profile-top.mjs). docs/testing.md, "Profiling a workerd runtime".
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const opts = dash === -1 ? argv : argv.slice(0, dash);
const files = dash === -1 ? [] : argv.slice(dash + 1);
const opt = (name, fallback) => {
  const i = opts.indexOf(`--${name}`);
  return i === -1 ? fallback : opts[i + 1];
};
const out = opt("out", "/tmp/workerd-profile");
const port = Number(opt("port", "9339"));
const chunkSeconds = Number(opt("chunk", "3"));
const interval = Number(opt("interval", "1000"));
const project = opt("project", "workerd");
// Which of the runtime's workers to profile (name prefixes): the test runner's worker runs the app, the tests and their
// helpers; d1:db is miniflare's D1 (SQLite). Every profiled worker costs workerd a profiler thread ("all": every one).
const workers = opt("workers", "core:user,d1:db").split(",");
if (files.length === 0) {
  console.error("usage: node test/harness/workerd-profile.mjs [--out DIR] [--port N] [--chunk S] [--interval µs] [--project P] -- <test files>");
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const vitest = spawn(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", project, `--inspect=127.0.0.1:${port}`, "--no-file-parallelism", "--maxWorkers=1", ...files], {
  stdio: "inherit",
  env: process.env,
});
let vitestDone = false;
const vitestExit = new Promise((resolve) => vitest.on("exit", (code) => ((vitestDone = true), resolve(code ?? 1))));

/** One DevTools session with a worker: numbered requests, answers by id. */
function session(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    let next = 1;
    const waiting = new Map();
    ws.on("message", (data) => {
      const msg = JSON.parse(String(data));
      if (msg.id !== undefined && waiting.has(msg.id)) {
        const { ok, fail } = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (msg.error) fail(new Error(`${msg.error.message}`));
        else ok(msg.result);
      }
    });
    const closed = new Promise((r) => ws.on("close", r));
    ws.on("close", () => {
      for (const { fail } of waiting.values()) fail(new Error("inspector closed"));
      waiting.clear();
    });
    ws.on("error", reject);
    ws.on("open", () =>
      resolve({
        closed,
        send: (method, params = {}) =>
          new Promise((ok, fail) => {
            const id = next++;
            waiting.set(id, { ok, fail });
            ws.send(JSON.stringify({ id, method, params }));
          }),
      }),
    );
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const profiled = new Set();
let written = 0;

async function profile(target) {
  const name = target.webSocketDebuggerUrl.split("/").pop() || "worker";
  const s = await session(target.webSocketDebuggerUrl.replaceAll("#", "%23"));
  await s.send("Profiler.enable");
  await s.send("Profiler.setSamplingInterval", { interval });
  let alive = true;
  s.closed.then(() => (alive = false));
  for (let n = 0; alive; n++) {
    await s.send("Profiler.start");
    await Promise.race([sleep(chunkSeconds * 1000), s.closed]);
    if (!alive) break;
    const result = await s.send("Profiler.stop").catch(() => null);
    if (result === null) break;
    writeFileSync(join(out, `${name}-${String(n).padStart(4, "0")}.cpuprofile`), JSON.stringify(result.profile));
    written++;
  }
}

/** CPU seconds (user+sys, from /proc) of every workerd under vitest, as last seen alive: what the profile should account for. */
const workerdCpu = new Map();
/** The same per thread: the isolates run on the main thread; V8's compilers and GC helpers have threads of their own. */
const threadCpu = new Map();
function readWorkerdCpu() {
  let pids;
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (comm !== "workerd") continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (!isDescendant(fields[1])) continue;
      workerdCpu.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const t = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const name = t.slice(t.indexOf("(") + 1, t.lastIndexOf(")"));
        const f = t.slice(t.lastIndexOf(")") + 2).split(" ");
        threadCpu.set(`${pid}/${tid}`, { name, cpu: (Number(f[11]) + Number(f[12])) / 100 });
      }
    } catch {}
  }
}
function isDescendant(ppid) {
  for (let at = ppid, i = 0; at && at !== "0" && i < 20; i++) {
    if (at === String(vitest.pid)) return true;
    try {
      const stat = readFileSync(`/proc/${at}/stat`, "utf8");
      at = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
    } catch {
      return false;
    }
  }
  return false;
}

const sessions = [];
while (!vitestDone) {
  readWorkerdCpu();
  const targets = await fetch(`http://127.0.0.1:${port}/json`)
    .then((r) => r.json())
    .catch(() => []);
  for (const t of targets) {
    if (profiled.has(t.webSocketDebuggerUrl)) continue;
    const name = t.webSocketDebuggerUrl.split("/").pop() ?? "";
    if (!workers.includes("all") && !workers.some((w) => name.startsWith(w))) continue;
    profiled.add(t.webSocketDebuggerUrl);
    sessions.push(profile(t).catch((e) => console.error(`workerd-profile: ${t.webSocketDebuggerUrl}: ${e.message}`)));
  }
  await Promise.race([sleep(200), vitestExit]);
}
const code = await vitestExit;
await Promise.all(sessions);
const cpu = [...workerdCpu.values()].reduce((a, b) => a + b, 0);
console.log(`\nworkerd-profile: vitest exited ${code}; ${written} chunk(s) of ${profiled.size} worker(s) in ${out}`);
console.log(`workerd-profile: the workerd process(es) used ${cpu.toFixed(1)} CPU-s (user+sys, /proc, last seen up to 200 ms before they ended)`);
const byThread = new Map();
for (const { name, cpu } of threadCpu.values()) byThread.set(name, (byThread.get(name) ?? 0) + cpu);
console.log(`workerd-profile: by thread name: ${[...byThread].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n} ${c.toFixed(1)} s`).join(", ")}`);
if (written > 0) {
  const top = spawn(process.execPath, [new URL("./cpu-profile-top.mjs", import.meta.url).pathname, "--top", opt("top", "40"), ...readdirSync(out).map((f) => join(out, f))], { stdio: "inherit" });
  await new Promise((r) => top.on("exit", r));
}
process.exit(code);
