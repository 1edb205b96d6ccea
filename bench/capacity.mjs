#!/usr/bin/env node
// `npm run bench:capacity`: bytes per stored row, measured from a local D1
// database filled the way the service fills it. Leads are seeded as copies of
// a complete lead made through the API (as `npm run bench` does); a share of
// them is then submitted through the API so deals, offers, events and webhook
// deliveries exist in their real shapes (every event goes to a registered
// endpoint, as in production most do). The service is then stopped and
// SQLite's dbstat gives each table's pages, its indexes included.
//
// dbstat is not compiled into the local D1 runtime, so the measurement reads
// the stopped database file with python3's sqlite3 module.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { seedLeads } from "./lib/seed-leads.mjs";
import { api, completeLead, createLenders, createPartner, openLead, startBenchService } from "./lib/setup.mjs";

const LEADS = Number(process.env.CAPACITY_LEADS ?? 20_000);
const SUBMITS = Number(process.env.CAPACITY_SUBMITS ?? 1_000);
const receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(200).end("{}")));
await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

// The state directory is kept past the service's stop: the measurement reads its database file.
const service = await startBenchService({ prefix: "rfs-capacity-", port: Number(process.env.BENCH_PORT) || undefined });
const { persistTo } = service;
try {
  const lenders = await createLenders(service.url);
  for (const lender of lenders) await api(service.url, "POST", "/v1/webhooks", { headers: { "X-API-Key": lender.key }, body: { url: hook } });
  const partner = await createPartner(service.url, "capacity partner");
  const key = partner.live;
  await api(service.url, "POST", "/partner/v1/webhooks", { headers: { "X-API-Key": key }, body: { url: hook } });
  const template = await openLead(service.url, key, { ...completeLead("Widgets Trading Ltd"), partner_reference: "crm-000123" });

  seedLeads({ persistTo, plan: [{ scopeNumber: 9, organisationId: partner.id, environment: "live", templateId: template.id, count: LEADS }] });

  const ids = Array.from({ length: SUBMITS }, (_, i) => `${(i + 1).toString(16).padStart(8, "0")}-0009-4000-8000-000000000000`);
  for (let i = 0; i < ids.length; i += 10) {
    await Promise.all(ids.slice(i, i + 10).map((id) => api(service.url, "POST", `/partner/v1/leads/${id}/submit`, { headers: { "X-API-Key": key } })));
  }
  // Let dispatch after the writes and the first delivery attempts finish.
  await new Promise((r) => setTimeout(r, 5000));
} finally {
  await service.stop();
  receiver.close();
}

const dir = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
const file = join(dir, readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite"));
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
    tables[table] = {"rows": rows, "bytes": size, "bytes_per_row": round(size / rows) if rows else None}
print(json.dumps(tables))
`,
    file,
  ],
  { encoding: "utf8" },
);
if (measure.status !== 0) throw new Error(`python3 sqlite3 dbstat failed (python3 with sqlite3 is needed):\n${measure.stderr}`);
const tables = JSON.parse(measure.stdout);
const report = { generated_at: new Date().toISOString(), file_bytes: statSync(file).size, seeded_leads: LEADS, submitted: SUBMITS, tables };
rmSync(persistTo, { recursive: true, force: true });

console.log(`database file: ${(report.file_bytes / 1e6).toFixed(1)} MB`);
console.log("table".padEnd(28), "rows".padStart(9), "bytes".padStart(12), "bytes/row".padStart(10), "(indexes included)");
for (const [name, t] of Object.entries(tables).sort((a, b) => b[1].bytes - a[1].bytes)) {
  console.log(name.padEnd(28), String(t.rows).padStart(9), String(t.bytes).padStart(12), String(t.bytes_per_row ?? "-").padStart(10));
}
const out = process.env.BENCH_OUT ?? join(HERE, "results", `capacity-${report.generated_at.replace(/[:.]/g, "-")}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
console.log(`written: ${out}`);
