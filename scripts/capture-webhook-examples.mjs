#!/usr/bin/env node
// Captures the webhook event examples of the API reference from a real service, as
// scripts/capture-examples.mjs does for the operations: `npm run dev` (or any local service), then
//   BASE=http://localhost:8787 ADMIN_TOKEN=<from .dev.vars> node scripts/capture-webhook-examples.mjs
// It listens as an integrator's receiver on 127.0.0.1, subscribes one endpoint per payload mode on
// each API, walks a sandbox lead and a sandbox test deal through every event, and writes the bodies
// the service signed and sent to src/api/reference/webhook-examples.json, hosts replaced by example
// ones. test/docs-examples.test.ts checks each against the event's schema in the OpenAPI document.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";

const B = process.env.BASE ?? "http://localhost:8787";
const ADMIN = { Authorization: `Bearer ${process.env.ADMIN_TOKEN}` };
const OUT = "src/api/reference/webhook-examples.json";

const received = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    received.push({ path: req.url, event: req.headers["x-service-event"], body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
    res.writeHead(200).end("ok");
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const R = `http://127.0.0.1:${server.address().port}`;

async function call(method, path, { headers = {}, body, raw, ct } = {}) {
  const h = { ...headers };
  let b;
  if (body !== undefined) { b = JSON.stringify(body); h["Content-Type"] = "application/json"; }
  if (raw !== undefined) { b = raw; if (ct) h["Content-Type"] = ct; }
  const res = await fetch(B + path, { method, headers: h, body: b });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}
async function upload(headers, leadId, filename, type, bytes) {
  const form = new FormData();
  form.set("document_type", "bank_statements");
  form.set("file", new Blob([bytes], { type }), filename);
  const res = await fetch(`${B}/partner/v1/leads/${leadId}/documents`, { method: "POST", headers, body: form });
  if (res.status >= 400) throw new Error(`upload ${filename}: ${res.status} ${await res.text()}`);
  return res.json();
}

const product = { id: "gb-term-loan", product_family: "business_loan", label: "Term loan 12-36 months", markets: ["GB"], min_amount: 10000, max_amount: 250000, min_monthly_revenue: 5000, min_months_trading: 12, pricing: { annual_rate_pct: { min: 8, max: 16 }, term_months: { min: 12, max: 36 }, fee_pct: 2 } };
const partner = await call("POST", "/admin/v1/organisations", { headers: ADMIN, body: { name: "Acme Brokers", kind: "partner" } });
const lender = await call("POST", "/admin/v1/organisations", { headers: ADMIN, body: { name: "Northwind Capital", kind: "lender" } });
await call("PUT", `/admin/v1/organisations/${lender.id}/products`, { headers: ADMIN, body: { products: [product] } });
const P = { "X-API-Key": (await call("POST", `/admin/v1/organisations/${partner.id}/keys`, { headers: ADMIN, body: { environment: "sandbox" } })).key };
const L = { "X-API-Key": (await call("POST", `/admin/v1/organisations/${lender.id}/keys`, { headers: ADMIN, body: { environment: "sandbox" } })).key };
for (const payload of ["full", "reference"]) {
  await call("POST", "/partner/v1/webhooks", { headers: P, body: { url: `${R}/partner/${payload}`, payload } });
  await call("POST", "/v1/webhooks", { headers: L, body: { url: `${R}/lender/${payload}`, payload } });
}

// The partner's side: a sandbox lead from creation to funding, one declined and one nobody's panel takes.
const persons = { significant_persons: [{ full_name: "Ada Lovelace", date_of_birth: "1985-12-10", residential_address: { line1: "1 High St", postal_code: "SW1A 1AA", country: "GB" }, ownership_percent: 100 }] };
const leadBody = (amount, partner_reference) => ({
  country: "GB",
  partner_reference,
  business: { name: "Acme Trading Ltd", company_number: "09876543", entity_type: "private_limited_company", industry: "retail" },
  contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@acme.example" },
  funding: { amount, purpose: "stock_inventory" },
  trading: { monthly_revenue: 42000, tib_months: 48 },
});
async function submitted(amount, reference) {
  const lead = await call("POST", "/partner/v1/leads", { headers: P, body: leadBody(amount, reference) });
  await call("PUT", `/partner/v1/leads/${lead.id}/significant-persons`, { headers: P, body: persons });
  return lead;
}
const funded = await submitted(40000, "CRM-1042");
await upload(P, funded.id, "statement-q1.csv", "text/csv", readFileSync("examples/statement-q1.csv"));
const rejected = await upload(P, funded.id, "empty.pdf", "application/pdf", new Uint8Array());
await call("DELETE", `/partner/v1/leads/${funded.id}/documents/${rejected.id}`, { headers: P });
await call("POST", `/partner/v1/leads/${funded.id}/submit`, { headers: P });
const offers = await call("GET", `/partner/v1/leads/${funded.id}/offers`, { headers: P });
await call("POST", `/partner/v1/leads/${funded.id}/offers/${offers.offers[0].id}/acceptance`, { headers: P });
await call("POST", `/partner/v1/sandbox/leads/${funded.id}/simulate`, { headers: P, body: { event: "fund" } });
const declined = await submitted(60000, "CRM-1043");
await call("POST", `/partner/v1/leads/${declined.id}/submit`, { headers: P });
await call("POST", `/partner/v1/sandbox/leads/${declined.id}/simulate`, { headers: P, body: { event: "decline" } });
const unmatched = await submitted(5_000_000, "CRM-1044");
await call("POST", `/partner/v1/leads/${unmatched.id}/submit`, { headers: P });

// The lender's side: a test deal walked through its life by the sandbox business.
const deal = await call("POST", "/v1/test/deals", { headers: L });
const simulate = (event) => call("POST", `/v1/test/deals/${deal.ref}/simulate`, { headers: L, body: { event } });
await simulate("message.created");
await call("POST", `/v1/deals/${deal.ref}/requests`, { headers: L, body: { item_type: "bank_statements_3m" } });
await simulate("request.fulfilled");
await simulate("document.removed");
await call("POST", `/v1/deals/${deal.ref}/offers`, { headers: L, body: { maturity: "firm", amount: 40000, kind: "business_loan", annual_rate_pct: 11.5, term_months: 24, fees: 800, total_repayment: 45600 } });
await simulate("offer.accepted");
await simulate("deal.account_submitted");
await call("PUT", `/v1/deals/${deal.ref}/agreement`, { headers: L, raw: readFileSync("examples/agreement.pdf"), ct: "application/pdf" });
await simulate("deal.agreement_signed");

// Every event the documents describe, so a new event without an example fails here, not in review.
const eventsOf = async (path) => Object.keys((await call("GET", path)).webhooks);
const PARTNER_EVENTS = await eventsOf("/partner/v1/openapi.json");
const LENDER_EVENTS = await eventsOf("/v1/openapi.json");
const wanted = [...PARTNER_EVENTS.map((e) => ["partner", e]), ...LENDER_EVENTS.map((e) => ["lender", e])].flatMap(([api, e]) => ["full", "reference"].map((mode) => [api, e, mode]));
const first = (api, event, mode) => received.find((r) => r.path === `/${api}/${mode}` && r.event === event);
const deadline = Date.now() + 60_000;
while (wanted.some((w) => !first(...w)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
const missing = wanted.filter((w) => !first(...w)).map((w) => w.join(" "));
server.close();
// Events this walk does not drive (the business's own decline, the application link, commission) keep the
// example already in the file, made by the test that drives them; a new event with neither fails here.
const kept = JSON.parse(readFileSync(OUT, "utf8"));
const unseen = missing.filter((m) => { const [api, event, mode] = m.split(" "); return kept[api]?.[event]?.[mode] === undefined; });
if (unseen.length) throw new Error(`no delivery within 60 s and no example kept for: ${unseen.join(", ")}`);
if (missing.length) console.log(`kept the file's examples for: ${missing.join(", ")}`);

const out = { partner: {}, lender: {} };
for (const [api, event, mode] of wanted) (out[api][event] ??= {})[mode] = first(api, event, mode)?.body ?? kept[api][event][mode];
const sanitised = JSON.stringify(out, null, 2).replaceAll(B, "https://api.example.com");
writeFileSync(OUT, `${sanitised}\n`);
console.log(`${wanted.length} event bodies (${PARTNER_EVENTS.length + LENDER_EVENTS.length} events, full and reference) captured into ${OUT}`);
