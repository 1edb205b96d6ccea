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
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadDemoPanel } from "../scripts/lib/seed.mjs";
import { startService } from "../scripts/lib/service.mjs";
import { seedLeads } from "./lib/seed-leads.mjs";

const LEADS = Number(process.env.CAPACITY_LEADS ?? 20_000);
const SUBMITS = Number(process.env.CAPACITY_SUBMITS ?? 1_000);
const ADMIN_TOKEN = "capacity-admin-token";
const HERE = dirname(fileURLToPath(import.meta.url));

const receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(200).end("{}")));
await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

async function api(url, method, path, headers = {}, body, attempt = 1) {
  const res = await fetch(`${url}${path}`, { method, headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  // wrangler dev answers 503 when its runtime restarted under the request (seen on a loaded machine): retried.
  if (res.status === 503 && /restarted mid-request/.test(text) && attempt < 3) {
    await new Promise((r) => setTimeout(r, 2000));
    return api(url, method, path, headers, body, attempt + 1);
  }
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const port = Number(process.env.BENCH_PORT) || 8823;
const persistTo = mkdtempSync(join(tmpdir(), "rfs-capacity-"));
const start = () =>
  startService({ port, persistTo, vars: { ADMIN_TOKEN, SIGNING_SECRET: "capacity", RATE_LIMIT_PER_MINUTE: "100000000", ALLOW_PRIVATE_WEBHOOKS: "true" } });
let service = await start();
try {
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  for (const lender of await loadDemoPanel()) {
    const org = await api(service.url, "POST", "/admin/v1/organisations", admin, { name: lender.name, kind: "lender" });
    await api(service.url, "PUT", `/admin/v1/organisations/${org.id}/products`, admin, { products: lender.products });
    const key = (await api(service.url, "POST", `/admin/v1/organisations/${org.id}/keys`, admin, { environment: "live" })).key;
    await api(service.url, "POST", "/v1/webhooks", { "X-API-Key": key }, { url: hook });
  }
  const partner = await api(service.url, "POST", "/admin/v1/organisations", admin, { name: "capacity partner", kind: "partner" });
  const key = (await api(service.url, "POST", `/admin/v1/organisations/${partner.id}/keys`, admin, { environment: "live" })).key;
  await api(service.url, "POST", "/partner/v1/webhooks", { "X-API-Key": key }, { url: hook });
  const template = await api(service.url, "POST", "/partner/v1/leads", { "X-API-Key": key }, {
    country: "GB",
    partner_reference: "crm-000123",
    business: { name: "Widgets Trading Ltd", company_number: "01234567", entity_type: "private_limited_company", industry: "ecommerce" },
    contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000" },
    funding: { amount: 40_000, purpose: "working_capital", product_family: "business_loan" },
    trading: { monthly_revenue_band: "25k_50k", time_in_business_band: "24m_60m", annual_turnover: 420_000 },
    consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
  });

  service.stop();
  await new Promise((r) => (service.child.exitCode !== null ? r() : service.child.once("exit", r)));
  seedLeads({ persistTo, plan: [{ scopeNumber: 9, organisationId: partner.id, environment: "live", templateId: template.id, count: LEADS }] });
  service = await start();

  const ids = Array.from({ length: SUBMITS }, (_, i) => `${(i + 1).toString(16).padStart(8, "0")}-0009-4000-8000-000000000000`);
  for (let i = 0; i < ids.length; i += 10) {
    await Promise.all(ids.slice(i, i + 10).map((id) => api(service.url, "POST", `/partner/v1/leads/${id}/submit`, { "X-API-Key": key })));
  }
  // Let dispatch after the writes and the first delivery attempts finish.
  await new Promise((r) => setTimeout(r, 5000));
} finally {
  service.stop();
  await new Promise((r) => (service.child.exitCode !== null ? r() : service.child.once("exit", r)));
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
