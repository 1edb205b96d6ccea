#!/usr/bin/env node
// `npm run bench`: starts `wrangler dev` on a fresh local state with the rate
// limit raised, seeds 100,000 leads across two accounts and both environments,
// then drives every row of scenarios.mjs with autocannon at concurrency 1 and
// 10: a warm-up, then interleaved rounds (every row, every concurrency, round
// after round) and the median of the rounds. `GET /health` is measured in the
// same rounds and every row is given as a ratio to it. Round trips per request
// are read from each row's Server-Timing header; webhook latency is measured
// with a local receiver. Prints the table and which targets hold, and writes
// the same as JSON under bench/results/ (BENCH_OUT to write elsewhere).
//
// BENCH_SMOKE=1: the same run at tiny sizes (a few hundred leads, a few dozen
// requests per run) to prove the harness works; its figures mean nothing.
import autocannon from "autocannon";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureStartup } from "../scripts/lib/startup.mjs";
import { withWorkerBuild } from "../scripts/lib/worker-build.mjs";
import { seedLeads } from "./lib/seed-leads.mjs";
import { api, completeLead, createLenders, createPartner, draftLead, openLead, seededId, startBenchService } from "./lib/setup.mjs";
import { evaluateTargets, printReport } from "./lib/report.mjs";
import { measureWebhookLatency, startReceiver } from "./lib/webhook-latency.mjs";
import { rotating, scenarios } from "./scenarios.mjs";

const SMOKE = process.env.BENCH_SMOKE === "1";
// BENCH_LEADS=N: N leads in the measured account (A live; 2,000 of them complete drafts for the submit
// row), 2,000 in each other scope, page 500 as the deep page, for a shorter run on a loaded machine
// (docs/capacity.md's 20,000-lead table). BENCH_RUN_SECONDS sets each run's length (5).
const LEADS = Number(process.env.BENCH_LEADS) || null;
const RUN_SECONDS = Number(process.env.BENCH_RUN_SECONDS) || 5;
const CONFIG = SMOKE
  ? // autocannon reports a run at its next sample tick (1 s by default), so a 10-request run would
    // last a second: the smoke samples every 20 ms, and its runs take as long as their requests.
    // Two rounds, not three: the smoke proves the rounds interleave and each run is kept (two runs per
    // row and concurrency, the median of an even count), and a third round of tiny runs proves nothing more.
    { leads: { aLive: 150, aLiveDrafts: 100, aSandbox: 20, bLive: 20, bSandbox: 20 }, deepPage: 5, dealSubmits: 3, warmUp: { amount: 10, sampleInt: 20 }, run: { amount: 10, sampleInt: 20 }, rounds: 2, webhookIterations: 3 }
  : {
      leads: LEADS
        ? { aLive: LEADS - 2_000, aLiveDrafts: 2_000, aSandbox: 2_000, bLive: 2_000, bSandbox: 2_000 }
        : { aLive: 30_000, aLiveDrafts: 10_000, aSandbox: 20_000, bLive: 20_000, bSandbox: 20_000 },
      deepPage: LEADS ? 500 : 1000,
      dealSubmits: LEADS ? 100 : 300,
      warmUp: { duration: 3 },
      run: { duration: RUN_SECONDS },
      rounds: 3,
      webhookIterations: LEADS ? 30 : 60,
    };
const CONCURRENCIES = [1, 10];
const HERE = dirname(fileURLToPath(import.meta.url));
const STARTED = performance.now();
/** A progress line with the seconds since the bench began, so a slow phase shows where it is. */
const phase = (what) => console.log(`[${((performance.now() - STARTED) / 1000).toFixed(1)} s] ${what}`);

async function inBatches(items, size, work) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/**
 * The accounts and templates through the API, then the leads seeded into the same local database by
 * `wrangler d1 execute --local` while the service runs (it reads them at once; bench/lib/seed-leads.mjs).
 */
async function setUp(service) {
  const url = service.url;
  phase("service up; making the panel, the accounts and the template leads");
  const lenders = await createLenders(url);
  const accounts = { a: await createPartner(url, "bench partner a", ["live", "sandbox"]), b: await createPartner(url, "bench partner b", ["live", "sandbox"]) };
  const headersA = { "X-API-Key": accounts.a.live };
  // Templates made through the API, so every seeded column is what the service writes.
  const draft = await openLead(url, accounts.a.live, draftLead("Seeded Ltd"));
  const complete = await openLead(url, accounts.a.live, completeLead("Seeded Complete Ltd"));

  const { leads } = CONFIG;
  const plan = [
    { scopeNumber: 1, organisationId: accounts.a.id, environment: "live", templateId: draft.id, count: leads.aLive },
    { scopeNumber: 2, organisationId: accounts.a.id, environment: "live", templateId: complete.id, count: leads.aLiveDrafts },
    { scopeNumber: 3, organisationId: accounts.a.id, environment: "sandbox", templateId: draft.id, count: leads.aSandbox },
    { scopeNumber: 4, organisationId: accounts.b.id, environment: "live", templateId: draft.id, count: leads.bLive },
    { scopeNumber: 5, organisationId: accounts.b.id, environment: "sandbox", templateId: draft.id, count: leads.bSandbox },
  ];
  phase("seeding (wrangler d1 execute beside the running service)");
  // The leads are counted by the seeding's own `wrangler d1 execute`, after its inserts (one wrangler process fewer).
  const seeded = seedLeads({ persistTo: service.persistTo, plan, then: "SELECT count(*) AS n FROM leads" });
  const [{ n: leadCount }] = seeded.queried;
  phase(`seeded ${seeded.rows.toLocaleString("en")} leads in ${(seeded.ms / 1000).toFixed(1)} s (wrangler d1 execute --local --file); ${leadCount.toLocaleString("en")} in the database`);

  // Complete drafts, newest seeded first; some are submitted now so lenders hold deals.
  const drafts = rotating(Array.from({ length: leads.aLiveDrafts }, (_, i) => seededId(2, i + 1)), "submit drafts");
  await inBatches(Array.from({ length: CONFIG.dealSubmits }, () => drafts.take()), 10, (id) => api(url, "POST", `/partner/v1/leads/${id}/submit`, { headers: headersA }));
  let lender = null;
  for (const candidate of lenders) {
    const page = (await api(url, "GET", "/v1/deals?limit=25", { headers: { "X-API-Key": candidate.key } })).body;
    if (page.deals.length > 0 && (!lender || page.deals.length > lender.deals)) lender = { ...candidate, deals: page.deals.length, ref: page.deals[0].ref };
  }
  if (!lender) throw new Error("no lender received a deal from the submitted leads: the demo panel no longer matches the bench lead");

  phase(`submitted ${CONFIG.dealSubmits} drafts; walking to page ${CONFIG.deepPage}`);
  // The cursor of page `deepPage` (limit 25), reached with the largest pages the API allows.
  let remaining = (CONFIG.deepPage - 1) * 25;
  let cursor = null;
  while (remaining > 0) {
    const limit = Math.min(100, remaining);
    const page = (await api(url, "GET", `/partner/v1/leads?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers: headersA })).body;
    if (!page.next_cursor) throw new Error(`the list ended before page ${CONFIG.deepPage}`);
    cursor = page.next_cursor;
    remaining -= limit;
  }
  return { accounts, lender, drafts, deepCursor: cursor, leadId: seededId(1, Math.ceil(leads.aLive / 2)), leadCount, seedMs: seeded.ms };
}

/** One autocannon run; req/s is requests completed over the run's duration. */
function load(url, scenario, connections, size) {
  const request = { method: scenario.method, headers: scenario.headers ?? {}, body: scenario.body };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}${scenario.path ?? "/"}`,
        connections,
        ...size,
        ...request,
        requests: [scenario.nextPath ? { ...request, setupRequest: (req) => ({ ...req, path: scenario.nextPath() }) } : { ...request, path: scenario.path }],
      },
      (error, result) => {
        if (error) return reject(error);
        const total = result.requests.total;
        const seconds = Math.max((result.finish - result.start) / 1000, 0.001);
        resolve({
          rps: total / seconds,
          p50_ms: result.latency.p50,
          p99_ms: result.latency.p99,
          mean_ms: result.latency.average,
          requests: total,
          non2xx: result.non2xx,
          errors: result.errors,
          statuses: result.statusCodeStats,
        });
      },
    );
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** `d1;desc="1 round trip";dur=0.4, do;desc="1 call";dur=0.3, app;dur=2.0` → counts. */
function roundTrips(header) {
  const count = (name) => Number(new RegExp(`(?:^|, )${name};desc="(\\d+) `).exec(header ?? "")?.[1] ?? NaN);
  return { d1: count("d1"), do: count("do") };
}

/**
 * A row's round trips, from its Server-Timing. A row that can be repeated (no `nextPath`) is sent
 * twice and the second answer read: the panel cache's 60 s lifetime can end during the rounds, and
 * the one D1 read that reloads it is an isolate's, once a minute, not the row's.
 */
async function probe(url, scenario) {
  if (!scenario.nextPath) await fetch(`${url}${scenario.path}`, { method: scenario.method, headers: scenario.headers, body: scenario.body }).then((r) => r.text());
  const res = await fetch(`${url}${scenario.nextPath ? scenario.nextPath() : scenario.path}`, { method: scenario.method, headers: scenario.headers, body: scenario.body });
  await res.text();
  return { status: res.status, ...roundTrips(res.headers.get("Server-Timing")), server_timing: res.headers.get("Server-Timing") };
}

// A cold isolate's startup (issue 25), measured before the service starts so the runs have the CPU to themselves.
// The smoke run skips it (about 10 s a run of wrangler check startup); `npm run build:check` measures it too.
if (!SMOKE) console.log("measuring startup (wrangler check startup)");
const startup = SMOKE ? null : withWorkerBuild((build) => measureStartup(build, 5));
const serviceLog = [];
phase(`${process.env.BENCH_MIGRATED_STATE ? "copying the migrated state" : "migrating a fresh local state"} and starting wrangler dev`);
// BENCH_MIGRATED_STATE: a migrated local state to copy instead of migrating (the smoke test passes the e2e suite's).
const service = await startBenchService({ port: Number(process.env.BENCH_PORT) || undefined, log: (line) => serviceLog.push(line), migratedFrom: process.env.BENCH_MIGRATED_STATE });
const receiver = await startReceiver();
try {
  const ctx = await setUp(service);
  const url = service.url;
  const rows = scenarios({ partnerKey: ctx.accounts.a.live, lenderKey: ctx.lender.key, leadId: ctx.leadId, deepCursor: ctx.deepCursor, dealRef: ctx.lender.ref, drafts: ctx.drafts, deepPage: CONFIG.deepPage });

  phase(`warm-up (${JSON.stringify(CONFIG.warmUp)} per row at c=10)`);
  for (const row of rows) await load(url, row, 10, CONFIG.warmUp);

  const runs = new Map(rows.map((row) => [row.name, Object.fromEntries(CONCURRENCIES.map((c) => [c, []]))]));
  // The machine's load average (1, 5, 15 min) as the measured rounds start and end: figures from a shared machine are read beside it.
  const loadAtStart = loadavg().map((l) => Number(l.toFixed(2)));
  for (let round = 1; round <= CONFIG.rounds; round++) {
    phase(`round ${round} of ${CONFIG.rounds}`);
    for (const row of rows) for (const c of CONCURRENCIES) runs.get(row.name)[c].push(await load(url, row, c, CONFIG.run));
  }

  const results = [];
  for (const row of rows) {
    const byConcurrency = {};
    for (const c of CONCURRENCIES) {
      const list = runs.get(row.name)[c];
      byConcurrency[`c${c}`] = {
        rps: median(list.map((r) => r.rps)),
        p50_ms: median(list.map((r) => r.p50_ms)),
        p99_ms: median(list.map((r) => r.p99_ms)),
        mean_ms: median(list.map((r) => r.mean_ms)),
        // autocannon's latencies have a 1 ms resolution; at c=1 the mean (1000 / req/s) is the finer figure.
        mean_from_rps_ms: c === 1 ? 1000 / median(list.map((r) => r.rps)) : null,
        non2xx: list.reduce((n, r) => n + r.non2xx, 0),
        statuses: Object.assign({}, ...list.map((r) => r.statuses)),
        errors: list.reduce((n, r) => n + r.errors, 0),
        runs: list.map((r) => Number(r.rps.toFixed(1))),
      };
    }
    results.push({ name: row.name, kind: row.kind, ratio_target: row.ratioTarget ?? null, ...byConcurrency, round_trips: await probe(url, row) });
  }
  const loadAtEnd = loadavg().map((l) => Number(l.toFixed(2)));
  const floor = results.find((r) => r.kind === "floor");
  for (const r of results) for (const c of CONCURRENCIES) r[`c${c}`].ratio = r[`c${c}`].rps / floor[`c${c}`].rps;

  phase("webhook latency");
  const b = ctx.accounts.b;
  await api(url, "POST", "/partner/v1/webhooks", { headers: { "X-API-Key": b.live }, body: { url: receiver.url, events: ["lead.submitted"], payload: "reference" } });
  // A company of its own per lead: a second submit of one company would be refused as a duplicate.
  let hookLeads = 0;
  const webhook = await measureWebhookLatency({
    receiver,
    iterations: CONFIG.webhookIterations,
    makeLead: async () => (await api(url, "POST", "/partner/v1/leads", { headers: { "X-API-Key": b.live }, body: completeLead(`Hook ${++hookLeads} Ltd`) })).body.id,
    submit: (id) => api(url, "POST", `/partner/v1/leads/${id}/submit`, { headers: { "X-API-Key": b.live } }).then(() => undefined),
  });

  const report = {
    generated_at: new Date().toISOString(),
    smoke: SMOKE,
    machine: process.env.BENCH_MACHINE ?? "shared 2-core development machine (other work running)",
    load_average: { at_start: loadAtStart, at_end: loadAtEnd, note: "os.loadavg() (1, 5, 15 min) as the measured rounds began and ended" },
    tool: "autocannon 9.0.0 against wrangler dev (local workerd, local D1/DO/Queues)",
    method: { concurrencies: CONCURRENCIES, warm_up: CONFIG.warmUp, run: CONFIG.run, rounds: CONFIG.rounds, statistic: "median of the rounds; rounds interleave every row and concurrency" },
    data: { leads: ctx.leadCount, seeding: `INSERT … SELECT over a recursive counter, wrangler d1 execute --local --file, ${(ctx.seedMs / 1000).toFixed(1)} s`, deep_page: CONFIG.deepPage, submit_drafts_used: ctx.drafts.used },
    rows: results,
    webhook,
    startup: startup && { median_ms: startup.medianMs, runs_ms: startup.runsMs, tool: "wrangler check startup: active CPU of the startup phase's profile" },
  };
  report.targets = evaluateTargets(report);
  printReport(report);

  const out = process.env.BENCH_OUT ?? (SMOKE ? join(tmpdir(), `rfs-bench-smoke-${Date.now()}.json`) : join(HERE, "results", `${report.generated_at.replace(/[:.]/g, "-")}.json`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
  console.log(`\nwritten: ${out}`);
} catch (error) {
  console.error(serviceLog.slice(-40).join(""));
  throw error;
} finally {
  await receiver.close();
  await service.close();
}
