// What every bench script prepares the same way: `wrangler dev` started on a fresh local state with the
// bench's vars, stopped and started again around seeding, and, through the operator API, the demo
// panel's lenders with live keys, partner accounts with their keys and the template leads seeding
// copies. Used by bench/run.mjs, bench/serve-seeded.mjs, bench/capacity.mjs and bench/docs-load.mjs.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/local-run.mjs";
import { loadDemoPanel } from "../../scripts/lib/seed.mjs";
import { createHash } from "node:crypto";
import { startService } from "../../scripts/lib/service.mjs";

export const ADMIN_TOKEN = "bench-admin-token";

/**
 * A UK lead with every field its market needs to submit. Its company number comes from its name, so
 * leads of different names are different companies: a company is routed for one introducer at a time
 * (docs/leads.md, "Attribution"), and a second submit of one number would be refused.
 */
export const completeLead = (name) => ({
  country: "GB",
  business: { name, company_number: companyNumberOf(name), entity_type: "private_limited_company", industry: "ecommerce" },
  contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000" },
  funding: { amount: 40_000, purpose: "working_capital", product_family: "business_loan" },
  trading: { monthly_revenue_band: "25k_50k", time_in_business_band: "24m_60m", annual_turnover: 420_000 },
  consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
});

/** Eight digits from the name (the first 32 bits of its SHA-256), as a GB company number. */
function companyNumberOf(name) {
  return String(createHash("sha256").update(name).digest().readUInt32BE(0) % 100_000_000).padStart(8, "0");
}

/** A bare draft: what most seeded leads are copies of. */
export const draftLead = (name) => ({ country: "GB", business: { name }, funding: { amount: 25_000, purpose: "working_capital" } });

/** The id of seeded row `i` of scope `scopeNumber`: the same shape as the seeding SQL's printf (bench/lib/seed-leads.mjs). */
export const seededId = (scopeNumber, i) => `${i.toString(16).padStart(8, "0")}-${scopeNumber.toString(16).padStart(4, "0")}-4000-8000-000000000000`;

/**
 * One API call: JSON in and out, `{ body, headers }` back, an error on any non-2xx. A connection reset
 * or wrangler dev's "restarted mid-request" 503 (seen on a loaded machine when its runtime reloads) is
 * retried twice, 2 s apart.
 */
export async function api(url, method, path, { headers = {}, body } = {}, attempt = 1) {
  let res;
  try {
    res = await fetch(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    if (attempt >= 3) throw error;
    await new Promise((r) => setTimeout(r, 2000));
    return api(url, method, path, { headers, body }, attempt + 1);
  }
  const text = await res.text();
  if (res.status === 503 && /restarted mid-request/.test(text) && attempt < 3) {
    await new Promise((r) => setTimeout(r, 2000));
    return api(url, method, path, { headers, body }, attempt + 1);
  }
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** An operator API call with the bench's admin token; the answer's body. */
export const operator = (url, method, path, body) => api(url, method, `/admin/v1${path}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, body }).then((r) => r.body);

/** The demo panel's lenders, each with its products and a live key: `[{ id, name, key }]`. */
export async function createLenders(url) {
  const lenders = [];
  for (const lender of await loadDemoPanel()) {
    const org = await operator(url, "POST", "/organisations", { name: lender.name, kind: "lender" });
    await operator(url, "PUT", `/organisations/${org.id}/products`, { products: lender.products });
    lenders.push({ id: org.id, name: lender.name, key: (await operator(url, "POST", `/organisations/${org.id}/keys`, { environment: "live" })).key });
  }
  return lenders;
}

/** A partner account with a key per environment asked for: `{ id, live?, sandbox? }`. */
export async function createPartner(url, name, environments = ["live"]) {
  const org = await operator(url, "POST", "/organisations", { name, kind: "partner" });
  const partner = { id: org.id };
  for (const environment of environments) partner[environment] = (await operator(url, "POST", `/organisations/${org.id}/keys`, { environment })).key;
  return partner;
}

/** Opens a lead with a partner key; the lead's resource. */
export const openLead = async (url, key, lead) => (await api(url, "POST", "/partner/v1/leads", { headers: { "X-API-Key": key }, body: lead })).body;

/**
 * `wrangler dev` for a bench: a fresh local state (under the temp directory, `prefix`) unless `persistTo`
 * is given, a free port unless `port` is, the rate limit raised out of the way, private webhook
 * receivers allowed, and links pointing at the port it serves on; `vars` adds or overrides.
 * Leads are seeded into its state (`seedLeads(service.persistTo, …)`, another process writing the same local
 * database) while it runs: it reads the seeded rows at once and does not reload (checked 2026-11-27 with
 * `wrangler d1 execute --local` writing beside a running `wrangler dev`), so nothing stops or restarts it.
 * `close()` stops it and removes a state directory it made.
 * `migratedFrom`: a migrated state to start from, copied into the fresh one (the smoke test hands it the e2e
 * suite's, BENCH_MIGRATED_STATE), so the start skips `wrangler d1 migrations apply` (its record matches).
 */
export async function startBenchService({ prefix = "rfs-bench-", port, persistTo, vars = {}, log, migratedFrom } = {}) {
  const servePort = port ?? (await freePort());
  const dir = persistTo ?? mkdtempSync(join(tmpdir(), prefix));
  if (migratedFrom) cpSync(migratedFrom, dir, { recursive: true });
  const allVars = {
    ADMIN_TOKEN,
    SIGNING_SECRET: "bench-signing-secret",
    RATE_LIMIT_PER_MINUTE: "100000000",
    ALLOW_PRIVATE_WEBHOOKS: "true",
    PUBLIC_URL: `http://localhost:${servePort}`,
    ...vars,
  };
  const current = await startService({ port: servePort, persistTo: dir, vars: allVars, log });
  const stopped = async () => {
    current.stop();
    if (current.child.exitCode === null && current.child.signalCode === null) await new Promise((resolve) => current.child.once("exit", resolve));
  };
  return {
    port: servePort,
    persistTo: dir,
    url: current.url,
    stop: stopped,
    async close() {
      await stopped();
      if (!persistTo) rmSync(dir, { recursive: true, force: true });
    },
  };
}
