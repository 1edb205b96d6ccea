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
import { seedLeads } from "./lib/seed-leads.mjs";
import { api, completeLead, createLenders, createPartner, draftLead, openLead, seededId, startBenchService } from "./lib/setup.mjs";

const LEADS = Number(process.env.BENCH_LEADS) || 20_000;
const DRAFTS = Number(process.env.BENCH_DRAFTS) || 2_000;

const service = await startBenchService({ prefix: "rfs-seeded-", port: Number(process.env.BENCH_PORT) || undefined, vars: JSON.parse(process.env.BENCH_VARS || "{}") });
const url = service.url;
const lenders = await createLenders(url);
const orgs = { a: await createPartner(url, "seeded partner a"), b: await createPartner(url, "seeded partner b") };
const headers = { "X-API-Key": orgs.a.live };
const draft = await openLead(url, orgs.a.live, draftLead("Seeded Ltd"));
const complete = await openLead(url, orgs.a.live, completeLead("Seeded Complete Ltd"));
// Seeded beside the running service, which reads the rows at once (bench/lib/setup.mjs).
seedLeads({
  persistTo: service.persistTo,
  plan: [
    { scopeNumber: 1, organisationId: orgs.a.id, environment: "live", templateId: draft.id, count: LEADS - DRAFTS },
    { scopeNumber: 2, organisationId: orgs.a.id, environment: "live", templateId: complete.id, count: DRAFTS },
    { scopeNumber: 4, organisationId: orgs.b.id, environment: "live", templateId: draft.id, count: 2_000 },
  ],
});
// A few submits so the lenders hold deals (and the panel cache is warm).
for (let i = 1; i <= 10; i++) await api(url, "POST", `/partner/v1/leads/${seededId(2, i)}/submit`, { headers });
console.log(
  JSON.stringify({
    url,
    persistTo: service.persistTo,
    partnerKey: orgs.a.live,
    partnerB: orgs.b.live,
    lenderKey: lenders[0].key,
    leadId: seededId(1, Math.ceil((LEADS - DRAFTS) / 2)),
    drafts: Array.from({ length: DRAFTS - 10 }, (_, i) => seededId(2, i + 11)),
  }),
);
const stop = () => service.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
setInterval(() => {}, 1 << 30);
