// A paired comparison of the lead read (docs/capacity.md, "The lead read: one statement or six"): 20,000
// leads seeded with their relations, then the one-statement read (lists as JSON, with-relations-json.ts)
// and the plain batch (with-relations.ts) timed in the same process, in alternating blocks over the same
// random leads. Run alone: npx vitest run --project workerd test/leads/zz-read-pair.test.ts
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { database } from "../../src/db/client";
import { findLeadWithRelations as findPlain } from "../../src/db/leads/with-relations";
import { findLeadWithRelationsAsJson as findLeadWithRelations } from "../../src/db/leads/with-relations-json";
import { deals, leadRouting, offers } from "../../src/db/schema/deals";
import { documents } from "../../src/db/schema/documents";
import { hubLinks } from "../../src/db/schema/hub-links";
import { leads } from "../../src/db/schema/leads";
import { registerAnswers } from "../../src/db/schema/registers";
import { companyClaims } from "../../src/db/schema/claims";

const LEADS = 20_000;
const PAIRS = 6_000;
const org = "org_bench_pair";
const tmpl = "lead_tmpl";
const t = "2026-11-26T12:00:00.000Z";
const later = "2026-11-26T12:00:01.000Z";
const SUFFIXED = new Set(["id", "lead_id", "owner_id", "reference", "ref", "deal_ref", "company_key", "storage_key", "lookup_id"]);

async function copy(table: string, where: string) {
  const cols = (await env.DB.prepare(`pragma table_info(${table})`).all<{ name: string }>()).results.map((c) => c.name);
  const exprs = cols.map((c) => (SUFFIXED.has(c) ? `${c} || '-' || n` : c));
  await env.DB.prepare(
    `with recursive counter(n) as (select 1 union all select n + 1 from counter where n < ${LEADS}) insert into ${table} (${cols.join(", ")}) select ${exprs.join(", ")} from ${table}, counter where ${where}`,
  ).run();
}

it("pairs the one-statement lead read with the plain batch", { timeout: 1_800_000 }, async () => {
  const d = database(env.DB);
  const business = { name: "Bench Ltd", registry: null } as never;
  await d.insert(leads).values({ id: tmpl, organisationId: org, environment: "live", reference: "RF-TMPL", state: "submitted", country: "GB", business, significantPersons: [], timeline: [{ at: t, state: "draft" }] as never, renewalOf: null, createdAt: t, updatedAt: t });
  await d.insert(leadRouting).values({ leadId: tmpl, partnerOrganisationId: org, environment: "live", reasons: [{ code: "matched", detail: "x" }], outcome: null, outcomeAt: null, fundedAmount: null, lastChange: "c", createdAt: t });
  await d.insert(hubLinks).values({ leadId: tmpl, generation: 1, issuedAt: t });
  for (const [i, at] of [t, later].entries())
    await d.insert(documents).values({ id: `doc_${i}_t`, environment: "live", leadId: tmpl, partnerOrganisationId: org, dealRef: null, requestId: null, source: "partner_upload", documentType: "bank_statement", filename: "s.csv", contentType: "text/csv", byteSize: 1234, state: "accepted", reason: null, storageKey: `documents/live/${i}`, statement: null, receivedAt: at, decidedAt: at });
  for (const [i, sup] of [false, false, true].entries())
    await d.insert(offers).values({ id: `off_${i}_t`, environment: "live", leadId: tmpl, dealRef: null, lenderOrganisationId: "org_lender_x", label: "Term loan", maturity: "indicative", kind: "term_loan", amount: 25000 + i, currency: "GBP", annualRatePct: 9.9, factorRate: 1.15, termMonths: 12, fees: 250.5, totalRepayment: 28750.25, expiresAt: null, notes: "n", state: "presented", superseded: sup, simulated: false, createdAt: t });
  for (const i of [0, 1])
    await d.insert(deals).values({ ref: `DL-${i}T`, lenderOrganisationId: "org_lender_x", environment: "live", leadId: tmpl, partnerOrganisationId: org, productIds: ["p1"], subject: { country: "GB" } as never, status: "submitted", lenderStatus: "new", lastChange: "c", createdAt: t, updatedAt: t });
  await d.insert(registerAnswers).values({ ownerId: tmpl, kind: "registry", environment: "live", country: "GB", number: "0123", lookupId: "l2", answer: { status: "active", name: "B" }, checkedAt: later, attempts: 1, requestedAt: t, updatedAt: t });
  await d.insert(companyClaims).values({ id: "att_t", environment: "live", companyKey: "GB:register:t", leadId: tmpl, organisationId: org, since: t });
  const started = performance.now();
  await copy("leads", `id = '${tmpl}'`);
  for (const table of ["lead_routing", "hub_links", "documents", "offers", "deals", "company_claims"]) await copy(table, `lead_id = '${tmpl}'`);
  await copy("register_answers", `owner_id = '${tmpl}'`);
  const count = await env.DB.prepare(`select count(*) as n from leads where organisation_id = ?`).bind(org).first<{ n: number }>();
  console.log(`seeded ${count!.n} leads in ${Math.round(performance.now() - started)} ms`);
  expect(count!.n).toBe(LEADS + 1);
  await env.DB.prepare("analyze").run();

  const scope = { organisationId: org, environment: "live" as const };
  for (const n of [1, 777, 19_999]) {
    const a = await findLeadWithRelations(d, scope, `${tmpl}-${n}`);
    const b = await findPlain(d, scope, `${tmpl}-${n}`);
    expect(a!.documents).toHaveLength(2);
    expect(a!.offers).toHaveLength(2);
    expect(a!.routedOptions).toHaveLength(2);
    expect(b).toStrictEqual(a);
  }
  // workerd's clock moves only at I/O, so a read is timed as part of a block: the block's span ends at the
  // last read's answer, after every earlier read's mapping; blocks alternate AB, BA so drift hits both.
  const BLOCK = 20;
  const block = async (read: typeof findPlain, ids: string[]) => {
    const at = performance.now();
    for (const id of ids) await read(d, scope, id);
    return (performance.now() - at) / ids.length;
  };
  const idsOf = () => Array.from({ length: BLOCK }, () => `${tmpl}-${1 + Math.floor(Math.random() * LEADS)}`);
  for (let i = 0; i < 25; i++) { const ids = idsOf(); await block(findLeadWithRelations, ids); await block(findPlain, ids); }
  const one: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < PAIRS / BLOCK; i++) {
    const ids = idsOf();
    if (i % 2 === 0) { one.push(await block(findLeadWithRelations, ids)); plain.push(await block(findPlain, ids)); }
    else { plain.push(await block(findPlain, ids)); one.push(await block(findLeadWithRelations, ids)); }
  }
  const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
  const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ratios = one.map((x, i) => x / plain[i]!);
  const r = (x: number) => +x.toFixed(4);
  console.log(JSON.stringify({ reads: PAIRS, blockOf: BLOCK, msPerRead: { one: { median: r(median(one)), mean: r(mean(one)) }, plain: { median: r(median(plain)), mean: r(mean(plain)) } }, pairedRatio: { median: r(median(ratios)), p10: r(sorted(ratios)[Math.floor(ratios.length * 0.1)]!), p90: r(sorted(ratios)[Math.floor(ratios.length * 0.9)]!) }, ratioOfMeans: r(mean(one) / mean(plain)) }));
});
