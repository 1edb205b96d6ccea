#!/usr/bin/env node
// `npm run bench:capacity`: how fast the service fills one D1 database, measured.
//
// A simulated day at CAPACITY_MULTIPLE times the stated volume (docs/capacity.md: 1,000 leads a day)
// is driven through the real service (`wrangler dev` on a fresh local state): leads opened, half of
// them submitted (the matcher routes each to the demo panel's lenders), and every deal taken through
// its life by its lender and the partner (in review, a firm offer, the partner's acceptance, funded),
// with a webhook endpoint registered by the partner and by every lender, so events, deliveries and
// their attempts are written by the code that writes them in production. Only a sample of the day is
// driven (CAPACITY_SAMPLE, a fraction of it: 0.1 by default, 100 leads at 1×), then scaled to the day:
// every row the day writes is the same kind of row, so bytes grow with the rows.
//
// The service is stopped before and after the day and SQLite's dbstat (table + indexes, whole pages) is
// read from the local D1 file both times; the difference, divided by the sample, is each table's bytes
// per day. dbstat is not compiled into the local D1 runtime, so the stopped file is read with python3's
// sqlite3 module. The R2 bytes the day wrote (the local bucket's blobs) are reported beside it.
//
// Days until D1's 10 GB: the tables the cron prunes hold at most their retention period's worth
// (EVENT_RETENTION_DAYS read from wrangler.toml's production environment, as deployed), the others grow
// for ever; 10× and 100× scale the measured day (rows per day grow with leads per day; a row's size does not).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";
import { api, completeLead, createLenders, createPartner, startBenchService } from "./lib/setup.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
/** docs/capacity.md's stated volume. */
const STATED_LEADS_PER_DAY = 1_000;
const MULTIPLE = Number(process.env.CAPACITY_MULTIPLE ?? 1);
const SAMPLE = Number(process.env.CAPACITY_SAMPLE ?? 0.1);
const D1_LIMIT_BYTES = 10e9;
const CONCURRENCY = 8;
if (!(MULTIPLE > 0) || !(SAMPLE > 0 && SAMPLE <= 1)) throw new Error("CAPACITY_MULTIPLE must be > 0 and CAPACITY_SAMPLE in (0, 1].");

/** The deployed settings that decide what is pruned, read from wrangler.toml's environments (not restated here). */
function deployedSettings() {
  const read = (env) => unstable_readConfig({ config: join(ROOT, "wrangler.toml"), env }, { hideWarnings: true }).vars ?? {};
  const production = read("production");
  const staging = read("staging");
  const days = (vars) => {
    const n = Number(vars.EVENT_RETENTION_DAYS);
    // The service's own reading (src/domain/retention.ts): absent or unreadable is 90, under 30 is 30.
    return Number.isInteger(n) && n > 0 ? Math.max(30, n) : 90;
  };
  return { event_retention_days: { production: days(production), staging: days(staging) } };
}

/** Tables the every-minute cron prunes, and after how many days (src/services/retention/retention.ts and the sweeps of src/jobs/scheduled.ts). */
function retentionOf(settings) {
  const days = settings.event_retention_days.production;
  return { events: days, webhook_deliveries: days, webhook_attempts: days, idempotency_records: 1, portal_form_uses: 8, portal_challenges: 1 };
}

/** Runs `work` over `items`, `CONCURRENCY` at a time. */
async function inParallel(items, work) {
  const results = [];
  for (let i = 0; i < items.length; i += CONCURRENCY) results.push(...(await Promise.all(items.slice(i, i + CONCURRENCY).map(work))));
  return results;
}

/** The local D1 files: one per database (the control and live database `DB`, the sandbox's `DB_SANDBOX`). */
function d1Files(persistTo) {
  const dir = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
    .map((f) => join(dir, f));
}

/** Every database's tables, by file. */
const measureEvery = (persistTo) => Object.fromEntries(d1Files(persistTo).map((file) => [file, measureTables(file)]));

/** Each table's rows and bytes (its pages and its indexes' pages), from the stopped database file. */
function measureTables(file) {
  const measure = spawnSync(
    "python3",
    [
      "-c",
      `
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
owner = {name: table for name, table in c.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")}
pages = {}
for name, size in c.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
    table = owner.get(name, name)
    pages[table] = pages.get(table, 0) + size
tables = {}
for table, size in pages.items():
    if table.startswith("sqlite_") or table.startswith("_cf_") or table.startswith("d1_"):
        continue
    rows = c.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    tables[table] = {"rows": rows, "bytes": size}
print(json.dumps(tables))
`,
      file,
    ],
    { encoding: "utf8" },
  );
  if (measure.status !== 0) throw new Error(`python3 sqlite3 dbstat failed (python3 with sqlite3 is needed):\n${measure.stderr}`);
  return JSON.parse(measure.stdout);
}

/** Bytes of the local R2 buckets' stored objects (wrangler dev keeps each object's body as a blob file). */
function r2Bytes(persistTo) {
  const root = join(persistTo, "v3", "r2");
  if (!existsSync(root)) return { objects: 0, bytes: 0 };
  let objects = 0;
  let bytes = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (dir.endsWith("blobs")) {
        objects++;
        bytes += statSync(path).size;
      }
    }
  };
  walk(root);
  return { objects, bytes };
}

const receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(200).end("{}")));
await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;
const settings = deployedSettings();
const leadsInSample = Math.max(2, Math.round(STATED_LEADS_PER_DAY * MULTIPLE * SAMPLE));
const started = Date.now();

// The state directory outlives each stop: the measurement reads its database file.
let service = await startBenchService({ prefix: "rfs-capacity-", port: Number(process.env.BENCH_PORT) || undefined });
const { persistTo } = service;
const counts = { leads: 0, submitted: 0, deals: 0, in_review: 0, offers: 0, accepted: 0, funded: 0 };
let beforeByFile;
let r2Before;
try {
  const lenders = await createLenders(service.url);
  for (const lender of lenders) await api(service.url, "POST", "/v1/webhooks", { headers: { "X-API-Key": lender.key }, body: { url: hook } });
  const partner = await createPartner(service.url, "capacity partner");
  const key = partner.live;
  await api(service.url, "POST", "/partner/v1/webhooks", { headers: { "X-API-Key": key }, body: { url: hook } });
  await service.stop();
  beforeByFile = measureEvery(persistTo);
  r2Before = r2Bytes(persistTo);
  service = await startBenchService({ persistTo, port: service.port });
  const url = service.url;
  const partnerCall = (method, path, body) => api(url, method, `/partner/v1${path}`, { headers: { "X-API-Key": key }, body }).then((r) => r.body);

  // The day: leads opened, every second one submitted.
  const leadIds = await inParallel(Array.from({ length: leadsInSample }, (_, i) => i), async (i) => {
    const lead = await partnerCall("POST", "/leads", { ...completeLead(`Capacity Trading ${i} Ltd`), partner_reference: `crm-${i}` });
    counts.leads++;
    return lead.id;
  });
  const submitted = leadIds.filter((_, i) => i % 2 === 0);
  await inParallel(submitted, async (id) => {
    await partnerCall("POST", `/leads/${id}/submit`);
    counts.submitted++;
  });

  // Each lender works its deals: in review, then a firm offer.
  const dealsOf = [];
  for (const lender of lenders) {
    const lenderCall = (method, path, body) => api(url, method, `/v1${path}`, { headers: { "X-API-Key": lender.key }, body }).then((r) => r.body);
    let cursor = null;
    do {
      const page = await lenderCall("GET", `/deals?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      for (const deal of page.deals) dealsOf.push({ ref: deal.ref, call: lenderCall });
      cursor = page.next_cursor;
    } while (cursor);
  }
  counts.deals = dealsOf.length;
  await inParallel(dealsOf, async (deal) => {
    await deal.call("POST", `/deals/${deal.ref}/status`, { status: "in_review" });
    counts.in_review++;
    await deal.call("POST", `/deals/${deal.ref}/offers`, { maturity: "firm", amount: 40_000, kind: "business_loan", annual_rate_pct: 9.5, term_months: 24 });
    counts.offers++;
  });
  // The partner accepts one offer per lead; the lender whose offer it was reports the deal funded.
  await inParallel(submitted, async (id) => {
    const { offers } = await partnerCall("GET", `/leads/${id}/offers`);
    const offer = offers.find((o) => o.state === "presented");
    if (!offer) return;
    await partnerCall("POST", `/leads/${id}/offers/${offer.id}/acceptance`);
    counts.accepted++;
  });
  await inParallel(dealsOf, async (deal) => {
    // Only the accepted deal of each lead can be funded; the others' offers were closed (409), as in life.
    const funded = await deal.call("POST", `/deals/${deal.ref}/status`, { status: "funded", funded_amount: 40_000 }).then(
      () => true,
      (error) => (/ 409 /.test(String(error.message)) ? false : Promise.reject(error)),
    );
    if (funded) counts.funded++;
  });
  // Let the dispatch after the last writes and its first delivery attempts finish.
  await new Promise((r) => setTimeout(r, 5000));
} finally {
  await service.stop();
  receiver.close();
}

// The day's database: the one whose leads grew (the day is driven with one environment's keys; the
// other database, and the control tables beside the day's, change by no more than the setup's rows).
const afterByFile = measureEvery(persistTo);
const grewBy = (file) => (afterByFile[file].leads?.rows ?? 0) - (beforeByFile[file]?.leads?.rows ?? 0);
const dayFile = Object.keys(afterByFile).sort((a, b) => grewBy(b) - grewBy(a))[0];
const before = beforeByFile[dayFile] ?? {};
const after = afterByFile[dayFile];
const r2After = r2Bytes(persistTo);
const fileBytes = statSync(dayFile).size;
rmSync(persistTo, { recursive: true, force: true });

const scale = 1 / SAMPLE;
const retention = retentionOf(settings);
const tables = {};
for (const [name, t] of Object.entries(after)) {
  const rows = t.rows - (before[name]?.rows ?? 0);
  const bytes = t.bytes - (before[name]?.bytes ?? 0);
  if (rows === 0 && bytes === 0) continue;
  tables[name] = {
    rows_in_sample: rows,
    bytes_in_sample: bytes,
    rows_per_day: Math.round(rows * scale),
    bytes_per_day: Math.round(bytes * scale),
    bytes_per_row: rows > 0 ? Math.round(bytes / rows) : null,
    kept_days: retention[name] ?? null,
  };
}

/**
 * Days until the tables reach `limit` at `multiple` times the measured day: pruned tables stop growing after
 * their period. `eventDays` replaces EVENT_RETENTION_DAYS's period (the what-if at the specification's minimum).
 */
function daysUntil(limit, multiple, eventDays) {
  const eventTables = new Set(["events", "webhook_deliveries", "webhook_attempts"]);
  let held = 0;
  for (let day = 1; day <= 365 * 100; day++) {
    held = 0;
    for (const [name, t] of Object.entries(tables)) {
      const kept = eventDays !== undefined && eventTables.has(name) ? eventDays : (t.kept_days ?? Infinity);
      held += (t.bytes_per_day * multiple * Math.min(day, kept)) / MULTIPLE;
    }
    if (held >= limit) return day;
  }
  return null;
}

const total = Object.values(tables).reduce((s, t) => s + t.bytes_per_day, 0);
const delivery = tables.webhook_deliveries;
const attempts = tables.webhook_attempts;
const report = {
  generated_at: new Date().toISOString(),
  seconds: Math.round((Date.now() - started) / 1000),
  stated_leads_per_day: STATED_LEADS_PER_DAY,
  multiple: MULTIPLE,
  sample: SAMPLE,
  counts,
  settings,
  file_bytes: fileBytes,
  d1_bytes_per_day: total,
  r2_bytes_per_day: Math.round((r2After.bytes - r2Before.bytes) * scale),
  r2_objects_per_day: Math.round((r2After.objects - r2Before.objects) * scale),
  bytes_per_delivery: delivery ? delivery.bytes_per_row : null,
  delivery_storage_bytes_per_delivery: delivery ? Math.round((delivery.bytes_in_sample + (attempts?.bytes_in_sample ?? 0)) / delivery.rows_in_sample) : null,
  days_to_10_gb: Object.fromEntries([1, 10, 100].map((m) => [`${m}x`, daysUntil(D1_LIMIT_BYTES, m)])),
  days_to_10_gb_at_30_day_retention: Object.fromEntries([1, 10, 100].map((m) => [`${m}x`, daysUntil(D1_LIMIT_BYTES, m, 30)])),
  tables,
};

const mb = (b) => (b / 1e6).toFixed(2);
console.log(`simulated day: ${MULTIPLE}× ${STATED_LEADS_PER_DAY} leads, ${SAMPLE} of it driven (${leadsInSample} leads) in ${report.seconds} s; scaled ×${scale}`);
console.log(`driven: ${JSON.stringify(counts)}`);
console.log(`deployed settings (wrangler.toml): EVENT_RETENTION_DAYS production ${settings.event_retention_days.production}, staging ${settings.event_retention_days.staging}`);
console.log("table".padEnd(24), "rows/day".padStart(9), "MB/day".padStart(8), "bytes/row".padStart(10), "kept (days)".padStart(12), "(indexes included)");
for (const [name, t] of Object.entries(tables).sort((a, b) => b[1].bytes_per_day - a[1].bytes_per_day)) {
  console.log(name.padEnd(24), String(t.rows_per_day).padStart(9), mb(t.bytes_per_day).padStart(8), String(t.bytes_per_row ?? "-").padStart(10), String(t.kept_days ?? "for ever").padStart(12));
}
console.log(`D1 total: ${mb(total)} MB/day; R2: ${mb(report.r2_bytes_per_day)} MB/day in ${report.r2_objects_per_day} objects`);
console.log(`per delivery: ${report.bytes_per_delivery} bytes in webhook_deliveries, ${report.delivery_storage_bytes_per_delivery} bytes with its attempts`);
const years = (days) => (days ? `${days} days (${(days / 365).toFixed(1)} years)` : "more than 100 years");
for (const [m, days] of Object.entries(report.days_to_10_gb)) {
  console.log(`days until 10 GB at ${m}: ${years(days)}; with EVENT_RETENTION_DAYS at the minimum 30: ${years(report.days_to_10_gb_at_30_day_retention[m])}`);
}
const out = process.env.BENCH_OUT ?? join(HERE, "results", `capacity-${report.generated_at.replace(/[:.]/g, "-")}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
console.log(`written: ${out}`);
