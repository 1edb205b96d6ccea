#!/usr/bin/env node
// Captures the request and response examples of the API reference from a real
// service: `npm run dev` (or any local service), then
//   BASE=http://localhost:8787 ADMIN_TOKEN=<from .dev.vars> node scripts/capture-examples.mjs
// It walks a partner's lead and a lender's deal through every operation, and
// writes src/api/reference/examples.json with hosts, keys and secrets replaced by
// example values. test/docs-examples.test.ts checks each example against the
// zod schema of its operation, so a stale example fails the suite.
import { writeFileSync } from "node:fs";

const B = process.env.BASE ?? "http://localhost:8787";
const out = {};
const ADMIN = { Authorization: `Bearer ${process.env.ADMIN_TOKEN}` };
async function call(op, method, path, { headers = {}, body, raw, ct, csv } = {}) {
  const h = { ...headers };
  let b;
  if (body !== undefined) { b = JSON.stringify(body); h["Content-Type"] = "application/json"; }
  if (raw !== undefined) { b = raw; if (ct) h["Content-Type"] = ct; }
  const res = await fetch(B + path, { method, headers: h, body: b });
  const text = await res.text();
  let json = null; try { json = JSON.parse(text); } catch {}
  if (op && csv) out[op] = { ...out[op], response_csv: text };
  else if (op) out[op] = { request: body, status: res.status, response: json };
  if (res.status >= 400) throw new Error(`${op ?? path}: ${res.status} ${text.slice(0, 300)}`);
  return json;
}
const product = (id, label) => ({ id, product_family: "business_loan", label, markets: ["GB"], min_amount: 10000, max_amount: 250000, min_monthly_revenue: 5000, min_months_trading: 12, pricing: { annual_rate_pct: { min: 8, max: 16 }, term_months: { min: 12, max: 36 }, fee_pct: 2 } });
const partner = await call("admin POST /organisations", "POST", "/admin/v1/organisations", { headers: ADMIN, body: { name: "Acme Brokers", kind: "partner" } });
const lender = await call(null, "POST", "/admin/v1/organisations", { headers: ADMIN, body: { name: "Northwind Capital", kind: "lender" } });
await call("admin GET /organisations", "GET", "/admin/v1/organisations", { headers: ADMIN });
const pk = await call("admin POST /organisations/{id}/keys", "POST", `/admin/v1/organisations/${partner.id}/keys`, { headers: ADMIN, body: { environment: "live" } });
const psk = await call(null, "POST", `/admin/v1/organisations/${partner.id}/keys`, { headers: ADMIN, body: { environment: "sandbox" } });
const lk = await call(null, "POST", `/admin/v1/organisations/${lender.id}/keys`, { headers: ADMIN, body: { environment: "live" } });
await call("admin PUT /organisations/{id}/products", "PUT", `/admin/v1/organisations/${lender.id}/products`, { headers: ADMIN, body: { products: [product("gb-term-loan", "Term loan 12-36 months")] } });
await call("admin GET /organisations/{id}/products", "GET", `/admin/v1/organisations/${lender.id}/products`, { headers: ADMIN });
// Commission terms (docs/commission.md): the product's default, before any offer is accepted.
await call("admin PUT /commission-terms/{lender_id}/{product_id}", "PUT", `/admin/v1/commission-terms/${lender.id}/gb-term-loan`, { headers: ADMIN, body: { currency: "GBP", basis: "percentage", rate_bps: 150, max_amount: 250000, clawback_days: 90 } });
await call("admin GET /commission-terms/{lender_id}/{product_id}", "GET", `/admin/v1/commission-terms/${lender.id}/gb-term-loan`, { headers: ADMIN });
await call("admin GET /organisations/{id}", "GET", `/admin/v1/organisations/${partner.id}`, { headers: ADMIN });
await call("admin POST /organisations/{id}/invitations", "POST", `/admin/v1/organisations/${partner.id}/invitations`, { headers: ADMIN, body: { email: "ops@acme-brokers.example", role: "admin" } });
const P = { "X-API-Key": pk.key }, S = { "X-API-Key": psk.key }, L = { "X-API-Key": lk.key };
await call("partner POST /oauth/token", "POST", "/partner/v1/oauth/token", { body: { grant_type: "client_credentials", client_id: pk.client_id, client_secret: pk.key } });
await call("partner GET /me", "GET", "/partner/v1/me", { headers: P });
await call("partner GET /enums", "GET", "/partner/v1/enums", { headers: P });
await call("partner GET /enums/{name}", "GET", "/partner/v1/enums/revenue-bands?country=GB", { headers: P });
await call("partner POST /prequalification", "POST", "/partner/v1/prequalification", { headers: P, body: { country: "GB", funding: { purpose: "stock_inventory", amount: 50000 }, trading: { monthly_revenue_band: "25k_50k", tib_months: 30 } } });
const createBody = { country: "GB", partner_reference: "CRM-1042", business: { name: "Acme Trading Ltd", company_number: "09876543", entity_type: "private_limited_company", industry: "retail" }, contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@acme.example" }, funding: { amount: 40000, purpose: "stock_inventory" } };
const lead = await call("partner POST /leads", "POST", "/partner/v1/leads", { headers: P, body: createBody });
await call("partner PATCH /leads/{id}", "PATCH", `/partner/v1/leads/${lead.id}`, { headers: P, body: { trading: { monthly_revenue: 42000, tib_months: 48 } } });
await call("partner PUT /leads/{id}/significant-persons", "PUT", `/partner/v1/leads/${lead.id}/significant-persons`, { headers: P, body: { significant_persons: [{ full_name: "Ada Lovelace", date_of_birth: "1985-12-10", residential_address: { line1: "1 High St", postal_code: "SW1A 1AA", country: "GB" }, ownership_percent: 100 }] } });
const fd = new FormData(); fd.set("document_type", "bank_statements"); fd.set("file", new Blob(["%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"], { type: "application/pdf" }), "statement-q1.pdf");
const docRes = await fetch(B + `/partner/v1/leads/${lead.id}/documents`, { method: "POST", headers: P, body: fd });
const doc = await docRes.json(); out["partner POST /leads/{id}/documents"] = { request: { document_type: "bank_statements", file: "(binary)" }, status: docRes.status, response: doc };
await call("partner GET /leads/{id}/documents", "GET", `/partner/v1/leads/${lead.id}/documents`, { headers: P });
await call("partner GET /leads/{id}/documents/{document_id}", "GET", `/partner/v1/leads/${lead.id}/documents/${doc.id}`, { headers: P });
await call("partner POST /leads/{id}/submit", "POST", `/partner/v1/leads/${lead.id}/submit`, { headers: P });
await call("partner GET /leads/{id}", "GET", `/partner/v1/leads/${lead.id}`, { headers: P });
await call("partner GET /leads", "GET", `/partner/v1/leads?limit=1`, { headers: P });
// The live lead now holds its company (docs/leads.md, "Attribution"): the operator lists it and releases it.
const attributions = await call("admin GET /attributions", "GET", "/admin/v1/attributions?environment=live&limit=1", { headers: ADMIN });
await call("admin POST /attributions/{id}/release", "POST", `/admin/v1/attributions/${attributions.attributions[0].id}/release`, { headers: ADMIN, body: { reason: "The introducer agreed to hand the client over." } });
await call("partner POST /leads/{id}/hub-link", "POST", `/partner/v1/leads/${lead.id}/hub-link`, { headers: P });
const wh = await call("partner POST /webhooks", "POST", "/partner/v1/webhooks", { headers: P, body: { url: "http://127.0.0.1:9/hook", description: "Production CRM", events: ["lead.offers_available", "lead.funded"] } });
await call("partner GET /webhooks", "GET", "/partner/v1/webhooks", { headers: P });
await call("partner GET /webhooks/{id}", "GET", `/partner/v1/webhooks/${wh.id}`, { headers: P });
await call("partner PATCH /webhooks/{id}", "PATCH", `/partner/v1/webhooks/${wh.id}`, { headers: P, body: { payload: "reference" } });
await call("partner POST /webhooks/{id}/test", "POST", `/partner/v1/webhooks/${wh.id}/test`, { headers: P });
await call("partner POST /webhooks/{id}/rotate-secret", "POST", `/partner/v1/webhooks/${wh.id}/rotate-secret`, { headers: P });
// lender side
const deals = await call("lender GET /deals", "GET", "/v1/deals?status=new&limit=1", { headers: L });
const ref = deals.deals[0].ref;
await call("lender GET /me", "GET", "/v1/me", { headers: L });
await call("lender GET /deals/{ref}", "GET", `/v1/deals/${ref}`, { headers: L });
await call("lender POST /deals/{ref}/status", "POST", `/v1/deals/${ref}/status`, { headers: L, body: { status: "in_review" } });
await call("lender POST /deals/{ref}/offers", "POST", `/v1/deals/${ref}/offers`, { headers: L, body: { maturity: "firm", amount: 40000, kind: "business_loan", annual_rate_pct: 11.5, term_months: 24, fees: 800, total_repayment: 45600, expires_at: "2026-12-31T00:00:00Z" } });
await call("lender GET /deals/{ref}/offers", "GET", `/v1/deals/${ref}/offers`, { headers: L });
await call("lender POST /deals/{ref}/messages", "POST", `/v1/deals/${ref}/messages`, { headers: L, body: { body: "Could you send the last six months of statements?" } });
await call("lender GET /deals/{ref}/messages", "GET", `/v1/deals/${ref}/messages`, { headers: L });
const rq = await call("lender POST /deals/{ref}/requests", "POST", `/v1/deals/${ref}/requests`, { headers: L, body: { item_type: "bank_statements_6m", note: "Business account only" } });
await call("lender GET /deals/{ref}/requests", "GET", `/v1/deals/${ref}/requests`, { headers: L });
await call("lender GET /deals/{ref}/requests/{id}/files", "GET", `/v1/deals/${ref}/requests/${rq.request.id}/files`, { headers: L });
await call("lender GET /deals/{ref}/documents", "GET", `/v1/deals/${ref}/documents`, { headers: L });
const lwh = await call("lender POST /webhooks", "POST", "/v1/webhooks", { headers: L, body: { url: "http://127.0.0.1:9/hook", events: ["deal.created"] } });
await call("lender GET /webhooks", "GET", "/v1/webhooks", { headers: L });
await call("lender GET /webhooks/{id}", "GET", `/v1/webhooks/${lwh.id}`, { headers: L });
await call("lender PATCH /webhooks/{id}", "PATCH", `/v1/webhooks/${lwh.id}`, { headers: L, body: { events: ["deal.created", "offer.accepted"], description: "Deal desk" } });
await call("lender POST /webhooks/{id}/test", "POST", `/v1/webhooks/${lwh.id}/test`, { headers: L });
await call("lender POST /webhooks/{id}/rotate-secret", "POST", `/v1/webhooks/${lwh.id}/rotate-secret`, { headers: L });
// partner offers / acceptance
const offers = await call("partner GET /leads/{id}/offers", "GET", `/partner/v1/leads/${lead.id}/offers`, { headers: P });
await call("partner POST /leads/{id}/offers/{offerId}/acceptance", "POST", `/partner/v1/leads/${lead.id}/offers/${offers.offers[0].id}/acceptance`, { headers: P });
await call("lender GET /deals/{ref}/completion", "GET", `/v1/deals/${ref}/completion`, { headers: L });
await call("lender PUT /deals/{ref}/agreement", "PUT", `/v1/deals/${ref}/agreement`, { headers: L, raw: "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n", ct: "application/pdf" });
await call("lender POST /deals/{ref}/requests/{id}/waive", "POST", `/v1/deals/${ref}/requests/${rq.request.id}/waive`, { headers: L });
const td = await call("lender POST /test/deals", "POST", "/v1/test/deals", { headers: L, body: {} });
await call(null, "POST", `/v1/deals/${td.ref}/requests`, { headers: L, body: { item_type: "bank_statements_6m" } });
await call("lender POST /test/deals/{ref}/simulate", "POST", `/v1/test/deals/${td.ref}/simulate`, { headers: L, body: { event: "request.fulfilled" } });
await call("lender POST /referrals", "POST", "/v1/referrals", { headers: L, body: { ...createBody, trading: { monthly_revenue: 42000, tib_months: 48 } } });
await call("lender GET /referrals", "GET", "/v1/referrals", { headers: L });
await call("lender GET /events", "GET", "/v1/events?limit=1", { headers: L });
await call("partner GET /events", "GET", "/partner/v1/events?limit=1", { headers: P });
const deliveries = await call("partner GET /webhooks/{id}/deliveries", "GET", `/partner/v1/webhooks/${wh.id}/deliveries?limit=1`, { headers: P });
await call("partner POST /webhooks/{id}/deliveries/{delivery_id}/retry", "POST", `/partner/v1/webhooks/${wh.id}/deliveries/${deliveries.deliveries[0].id}/retry`, { headers: P });
const ldeliveries = await call("lender GET /webhooks/{id}/deliveries", "GET", `/v1/webhooks/${lwh.id}/deliveries?limit=1`, { headers: L });
if (ldeliveries.deliveries[0]) await call("lender POST /webhooks/{id}/deliveries/{delivery_id}/retry", "POST", `/v1/webhooks/${lwh.id}/deliveries/${ldeliveries.deliveries[0].id}/retry`, { headers: L });
// sandbox
const slead = await call(null, "POST", "/partner/v1/leads", { headers: S, body: { ...createBody, trading: { monthly_revenue: 42000, tib_months: 48 } } });
await call(null, "PUT", `/partner/v1/leads/${slead.id}/significant-persons`, { headers: S, body: { significant_persons: [{ full_name: "Ada Lovelace", date_of_birth: "1985-12-10", residential_address: { line1: "1 High St", postal_code: "SW1A 1AA", country: "GB" }, ownership_percent: 100 }] } });
await call(null, "POST", `/partner/v1/leads/${slead.id}/submit`, { headers: S });
const soffers = await call(null, "GET", `/partner/v1/leads/${slead.id}/offers`, { headers: S });
await call(null, "POST", `/partner/v1/leads/${slead.id}/offers/${soffers.offers[0].id}/acceptance`, { headers: S });
await call("partner POST /sandbox/leads/{id}/simulate", "POST", `/partner/v1/sandbox/leads/${slead.id}/simulate`, { headers: S, body: { event: "fund" } });
await call("partner POST /leads/{id}/renewals", "POST", `/partner/v1/leads/${slead.id}/renewals`, { headers: S });
// The accepted live deal funds: commission accrues, is paid, and an early settlement claws it back.
await call(null, "POST", `/v1/deals/${ref}/status`, { headers: L, body: { status: "funded", funded_amount: 40000 } });
const month = new Date().toISOString().slice(0, 7);
const accrued = await call("partner GET /commissions", "GET", `/partner/v1/commissions?month=${month}`, { headers: P });
await call("admin POST /commissions/{id}/payments", "POST", `/admin/v1/commissions/${accrued.commissions[0].id}/payments`, { headers: ADMIN, body: { payment_reference: "BACS-2026-11-0042" } });
await call("lender POST /deals/{ref}/repayment-outcome", "POST", `/v1/deals/${ref}/repayment-outcome`, { headers: L, body: { outcome: "settled_early" } });
await call("lender GET /commissions", "GET", `/v1/commissions?month=${month}`, { headers: L });
await call("partner GET /commissions/statements/{month}", "GET", `/partner/v1/commissions/statements/${month}`, { headers: P });
await call("partner GET /commissions/statements/{month}", "GET", `/partner/v1/commissions/statements/${month}`, { headers: { ...P, Accept: "text/csv" }, csv: true });
await call("admin GET /commissions", "GET", `/admin/v1/commissions?environment=live&partner_organisation_id=${partner.id}`, { headers: ADMIN });
await call("admin GET /commissions/totals", "GET", `/admin/v1/commissions/totals?environment=live&month=${month}`, { headers: ADMIN });
await call("partner GET /health", "GET", "/health");
await call("lender GET /health", "GET", "/health");


/** Example hosts and secrets in place of the local run's. */
const sanitised = JSON.stringify(out, null, 2)
  .replaceAll(B, "https://api.example.com")
  .replaceAll("http://127.0.0.1:9/hook", "https://hooks.acme.example/rfs")
  .replace(/(rfs_at_)[a-z0-9]+/g, "$1q3k9x2m7p4v8c1n6b5z0w2r8t4y7u1e3i9o5a2s6d8f0g4h")
  .replace(/(\/portal\/invitations\/)[A-Za-z0-9]+/g, "$1inv4x9q2m7c0v5b8n3z6w1r4t7y0u2e5i8o1a3s6d8f0")
  .replace(/(whsec_)[A-Za-z0-9+/=]+/g, "$1c2VjcmV0LWV4YW1wbGUtb25seS1zaG93bi1vbmNlLg==")
  .replace(/"(rfs_(?:ptr|pub|lnd)_(?:live|sandbox)_[a-z0-9]+)_[A-Za-z0-9]+"/g, '"$1_sk4x9q2m7c0v5b8n3z6w1r4t7y0u2e5i8o1a"');
writeFileSync("src/api/reference/examples.json", `${sanitised}\n`);
console.log(`${Object.keys(out).length} operations captured into src/api/reference/examples.json`);
