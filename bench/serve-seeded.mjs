#!/usr/bin/env node
// `node bench/serve-seeded.mjs` (run from a checkout's root): starts `wrangler dev` on a fresh local
// state seeded like `BENCH_LEADS=N npm run bench` (the demo panel's lenders, partner account A with
// N leads in live, 2,000 of them complete drafts, account B with a few), prints one JSON line
// {url, partnerKey, lenderKey, leadId, drafts: [...]} and keeps serving until killed.
//
// For before/after comparisons of a few rows on a shared machine (bench/compare.mjs): start one per
// checkout (the code before, the code after) and drive both in alternation, so both see the same
// load. BENCH_LEADS (20,000), BENCH_PORT (a free port), BENCH_DRAFTS (2,000), BENCH_VARS (a JSON
// object of extra `--var`s, e.g. '{"DISPATCH_AFTER_WRITE":"false"}' to hold one cause apart).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDemoPanel } from "../scripts/lib/seed.mjs";
import { freePort } from "../scripts/lib/local-run.mjs";
import { startService } from "../scripts/lib/service.mjs";
import { seedLeads } from "./lib/seed-leads.mjs";

const LEADS = Number(process.env.BENCH_LEADS) || 20_000;
const DRAFTS = Number(process.env.BENCH_DRAFTS) || 2_000;
const ADMIN_TOKEN = "bench-admin-token";

async function api(url, method, path, headers, body) {
  const res = await fetch(`${url}${path}`, { method, headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
const operator = (url, method, path, body) => api(url, method, `/admin/v1${path}`, { Authorization: `Bearer ${ADMIN_TOKEN}` }, body);

const port = Number(process.env.BENCH_PORT) || (await freePort());
const persistTo = mkdtempSync(join(tmpdir(), "rfs-seeded-"));
const vars = { ADMIN_TOKEN, SIGNING_SECRET: "bench-signing-secret", RATE_LIMIT_PER_MINUTE: "100000000", ALLOW_PRIVATE_WEBHOOKS: "true", PUBLIC_URL: `http://localhost:${port}`, ...JSON.parse(process.env.BENCH_VARS || "{}") };
let service = await startService({ port, persistTo, vars });
const url = service.url;
const lenders = [];
for (const lender of await loadDemoPanel()) {
  const org = await operator(url, "POST", "/organisations", { name: lender.name, kind: "lender" });
  await operator(url, "PUT", `/organisations/${org.id}/products`, { products: lender.products });
  lenders.push({ id: org.id, key: (await operator(url, "POST", `/organisations/${org.id}/keys`, { environment: "live" })).key });
}
const orgs = {};
for (const name of ["a", "b"]) {
  const org = await operator(url, "POST", "/organisations", { name: `seeded partner ${name}`, kind: "partner" });
  orgs[name] = { id: org.id, live: (await operator(url, "POST", `/organisations/${org.id}/keys`, { environment: "live" })).key };
}
const headers = { "X-API-Key": orgs.a.live };
const draft = await api(url, "POST", "/partner/v1/leads", headers, { country: "GB", business: { name: "Seeded Ltd" }, funding: { amount: 25_000, purpose: "working_capital" } });
const complete = await api(url, "POST", "/partner/v1/leads", headers, {
  country: "GB",
  business: { name: "Seeded Complete Ltd", company_number: "01234567", entity_type: "private_limited_company", industry: "ecommerce" },
  contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000" },
  funding: { amount: 40_000, purpose: "working_capital", product_family: "business_loan" },
  trading: { monthly_revenue_band: "25k_50k", time_in_business_band: "24m_60m", annual_turnover: 420_000 },
  consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
});
service.stop();
await new Promise((r) => (service.child.exitCode !== null ? r() : service.child.once("exit", r)));
seedLeads({
  persistTo,
  plan: [
    { scopeNumber: 1, organisationId: orgs.a.id, environment: "live", templateId: draft.id, count: LEADS - DRAFTS },
    { scopeNumber: 2, organisationId: orgs.a.id, environment: "live", templateId: complete.id, count: DRAFTS },
    { scopeNumber: 4, organisationId: orgs.b.id, environment: "live", templateId: draft.id, count: 2_000 },
  ],
});
service = await startService({ port, persistTo, vars });
const seededId = (scopeNumber, i) => `${i.toString(16).padStart(8, "0")}-${scopeNumber.toString(16).padStart(4, "0")}-4000-8000-000000000000`;
// A few submits so the lenders hold deals (and the panel cache is warm).
for (let i = 1; i <= 10; i++) await api(url, "POST", `/partner/v1/leads/${seededId(2, i)}/submit`, headers);
console.log(
  JSON.stringify({
    url,
    persistTo,
    partnerKey: orgs.a.live,
    partnerB: orgs.b.live,
    lenderKey: lenders[0].key,
    leadId: seededId(1, Math.ceil((LEADS - DRAFTS) / 2)),
    drafts: Array.from({ length: DRAFTS - 10 }, (_, i) => seededId(2, i + 11)),
  }),
);
const stop = () => {
  service.stop();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
setInterval(() => {}, 1 << 30);
