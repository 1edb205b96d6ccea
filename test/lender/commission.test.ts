import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { eventsFor, twoLenderPanel } from "../routing/helpers";
import { createLead } from "../leads/helpers";
import { firmOffer, makeOffer, routedLead } from "./helpers";
import { hubCall } from "../hub/helpers";
import { portal, signedInMember } from "../helpers/portal";
import { inData } from "../helpers/data-db";

const percentage = (rate_bps: number, extra: Record<string, unknown> = {}) => ({ currency: "GBP", basis: "percentage", rate_bps, clawback_days: 90, ...extra });
const putTerms = (lender: string, product: string, body: unknown) => admin("PUT", `/commission-terms/${lender}/${product}`, body);
const accept = (key: string, leadId: string, offerId: string) => call("POST", `/partner/v1/leads/${leadId}/offers/${offerId}/acceptance`, { key });
const fund = (key: string, ref: string, amount = 40_000) => call("POST", `/v1/deals/${ref}/status`, { key, body: { status: "funded", funded_amount: amount } });
const thisMonth = () => new Date().toISOString().slice(0, 7);
// A live lead's entries are in DB, a sandbox lead's in DB_SANDBOX (docs/capacity.md, "The commission ledger follows its deal").
const entriesOfLead = async (leadId: string) =>
  (await inData.prepare("select kind, amount, environment from commission_entries where lead_id = ? order by created_at, rowid").bind(leadId).all<any>()).results;

/** A routed live lead whose lender A offer was accepted, with default GBP terms on A's products set before the acceptance. */
async function acceptedWithTerms(terms = percentage(150)) {
  const routed = await routedLead();
  expect((await putTerms(routed.a.id, "a-loan", terms)).status).toBe(201);
  const offer = await makeOffer(routed.keys.a.live, routed.refA, firmOffer());
  expect((await accept(routed.partner.live.key, routed.lead.id, offer.id)).status).toBe(200);
  return { ...routed, offer };
}

describe("commission terms (operator)", () => {
  it("keeps every change with the time it took effect, and refuses what names nothing or contradicts itself", async () => {
    const { a } = await twoLenderPanel();
    const partner = await partnerWithKeys();
    expectProblem(await putTerms(a.id, "no-such-product", percentage(100)), 404, "not_found");
    const missingRate = await putTerms(a.id, "a-loan", { currency: "GBP", basis: "percentage", clawback_days: 30 });
    expectProblem(missingRate, 400, "invalid_request");
    expect(missingRate.body.error.field).toBe("rate_bps");
    const stranger = await putTerms(a.id, "a-loan", percentage(100, { partner_organisation_id: a.id }));
    expectProblem(stranger, 400, "invalid_request");
    expect(stranger.body.error.field).toBe("partner_organisation_id");
    expectProblem(await putTerms(a.id, "a-loan", percentage(100, { currency: "JPY" })), 400, "invalid_request");

    const first = await putTerms(a.id, "a-loan", percentage(100, { min_amount: 10_000 }));
    expect(first.body).toMatchObject({ partner_organisation_id: null, basis: "percentage", rate_bps: 100, min_amount: 10_000, in_force: true });
    const own = await putTerms(a.id, "a-loan", { currency: "GBP", basis: "flat", flat_amount: 50_000, clawback_days: 30, partner_organisation_id: partner.organisation.id });
    expect(own.status).toBe(201);
    const second = await putTerms(a.id, "a-loan", percentage(125));
    const read = await admin("GET", `/commission-terms/${a.id}/a-loan`);
    expect(read.status).toBe(200);
    expect(read.body.terms.map((t: any) => [t.id, t.in_force])).toEqual([
      [second.body.id, true],
      [own.body.id, true],
      [first.body.id, false],
    ]);
  });
});

describe("the ledger", () => {
  it("40 concurrent funded reports write one accrual, priced by the terms in force at acceptance; paid and clawed back are new entries", async () => {
    const { keys, refA, refB, partner, lead, a, b } = await acceptedWithTerms(percentage(150, { max_amount: 1_000_000 }));
    // Changed after the acceptance: the accrued amount must not follow.
    expect((await putTerms(a.id, "a-loan", percentage(900, { partner_organisation_id: partner.organisation.id }))).status).toBe(201);

    const answers = await Promise.all(Array.from({ length: 40 }, () => fund(keys.a.live, refA)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(39);
    expect((await fund(keys.a.live, refA)).status).toBe(409);
    expect(await entriesOfLead(lead.id)).toEqual([{ kind: "accrued", amount: 60_000, environment: "live" }]); // 1.5% of 40,000.00
    const accruedEvents = (await eventsFor(lead.id)).filter((e) => e.event === "commission.accrued");
    expect(accruedEvents).toHaveLength(1);
    expect(accruedEvents[0]).toMatchObject({ organisation_id: partner.organisation.id, api: "partner", detail: { reference: lead.reference, commission: { kind: "accrued", amount: 60_000, currency: "GBP", product_family: "business_loan" } } });

    const [accrued] = (await call("GET", "/partner/v1/commissions", { key: partner.live.key })).body.commissions;
    expect(accrued).toMatchObject({ kind: "accrued", amount: 60_000, funded_amount: 4_000_000, lead_id: lead.id, month: thisMonth() });

    // The operator pays it: a new entry with the reference, once.
    const paid = await admin("POST", `/commissions/${accrued.id}/payments`, { payment_reference: "BACS-0042" });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ kind: "paid", amount: -60_000, payment_reference: "BACS-0042", accrued_entry_id: accrued.id });
    expectProblem(await admin("POST", `/commissions/${accrued.id}/payments`, { payment_reference: "BACS-0043" }), 409, "conflict");
    expectProblem(await admin("POST", `/commissions/${paid.body.id}/payments`, { payment_reference: "BACS-0044" }), 409, "conflict");
    expectProblem(await admin("POST", `/commissions/${accrued.id}/payments?environment=sandbox`, { payment_reference: "BACS-0045" }), 404, "not_found");
    // The payment is in the introducer's audit log as the operator's, once: the refused payments wrote none.
    const paymentAudit = await env.DB.prepare("select member_id, environment, action, target from portal_audit_log where organisation_id = ? and action = 'commission.paid'").bind(partner.organisation.id).all();
    expect(paymentAudit.results).toEqual([{ member_id: "operator", environment: "live", action: "commission.paid", target: paid.body.id }]);

    // The lender reports an early settlement within clawback_days: a negative clawed_back entry, once.
    expectProblem(await call("POST", `/v1/deals/${refB}/repayment-outcome`, { key: keys.b.live, body: { outcome: "defaulted" } }), 409, "invalid_transition");
    expectProblem(await call("POST", `/v1/deals/${refA}/repayment-outcome`, { key: keys.b.live, body: { outcome: "defaulted" } }), 404, "not_found");
    const settled = await call("POST", `/v1/deals/${refA}/repayment-outcome`, { key: keys.a.live, body: { outcome: "settled_early" } });
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ lender_status: "funded", commission: { repayment_outcome: { outcome: "settled_early", reported_at: expect.any(String) } } });
    expectProblem(await call("POST", `/v1/deals/${refA}/repayment-outcome`, { key: keys.a.live, body: { outcome: "defaulted" } }), 409, "invalid_transition");
    expect((await entriesOfLead(lead.id)).map((e: any) => [e.kind, e.amount])).toEqual([
      ["accrued", 60_000],
      ["paid", -60_000],
      ["clawed_back", -60_000],
    ]);
    expect((await eventsFor(lead.id)).filter((e) => e.event.startsWith("commission.")).map((e) => e.event)).toEqual(["commission.accrued", "commission.paid", "commission.clawed_back"]);

    // The ledger refuses any change to an entry (the triggers of migration 0028).
    await expect(env.DB.prepare("update commission_entries set amount = 1 where lead_id = ?").bind(lead.id).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("delete from commission_entries where lead_id = ?").bind(lead.id).run()).rejects.toThrow(/append-only/);

    // The partner's statement, the lender's list and the operator's totals agree for the month.
    const month = thisMonth();
    const list = (await call("GET", `/partner/v1/commissions?month=${month}&limit=100`, { key: partner.live.key })).body.commissions;
    const listSum = list.reduce((sum: number, e: any) => sum + e.amount, 0);
    expect(listSum).toBe(-60_000);
    const statement = await call("GET", `/partner/v1/commissions/statements/${month}`, { key: partner.live.key });
    expect(statement.status).toBe(200);
    expect(statement.body.totals).toEqual([{ currency: "GBP", accrued: 60_000, paid: -60_000, clawed_back: -60_000, net: -60_000 }]);
    const csv = await call("GET", `/partner/v1/commissions/statements/${month}`, { key: partner.live.key, headers: { Accept: "text/csv" } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const rows = csv.text.trim().split("\r\n").map((line) => line.split(","));
    const column = rows[0]!.indexOf("amount_minor");
    const lines = rows.slice(1).filter((r) => r[0] !== "total");
    expect(lines).toHaveLength(list.length);
    expect(lines.reduce((sum, r) => sum + Number(r[column]), 0)).toBe(listSum);
    expect(Number(rows.find((r) => r[0] === "total")![column])).toBe(listSum);
    // Never the provider's name where the partner reads.
    for (const text of [JSON.stringify(list), JSON.stringify(statement.body), csv.text, JSON.stringify(await eventsFor(lead.id))]) expect(text).not.toMatch(/Lender [AB]|lender_organisation|deal_ref/);

    const lenderList = (await call("GET", `/v1/commissions?month=${month}`, { key: keys.a.live })).body.commissions.filter((e: any) => e.deal_ref === refA);
    expect(lenderList.reduce((sum: number, e: any) => sum + e.amount, 0)).toBe(listSum);
    expect((await call("GET", "/v1/commissions", { key: keys.b.live })).body.commissions.filter((e: any) => e.deal_ref === refA)).toEqual([]);
    const totals = (await admin("GET", `/commissions/totals?month=${month}`)).body.totals.filter((t: any) => t.partner_organisation_id === partner.organisation.id);
    expect(totals).toEqual([{ partner_organisation_id: partner.organisation.id, month, currency: "GBP", accrued: 60_000, paid: -60_000, clawed_back: -60_000, net: listSum, entries: 3 }]);
    const operatorList = await admin("GET", `/commissions?partner_organisation_id=${partner.organisation.id}`);
    expect(operatorList.body.commissions.map((e: any) => e.kind)).toEqual(["clawed_back", "paid", "accrued"]);
    expect(b.id).not.toBe(a.id);
  });

  it("keeps one ledger per account and environment: another partner and the sandbox key see nothing of it; a bad month is 400", async () => {
    const { partner, keys, refA } = await acceptedWithTerms();
    expect((await fund(keys.a.live, refA)).status).toBe(200);
    expect((await call("GET", "/partner/v1/commissions", { key: partner.live.key })).body.commissions).toHaveLength(1);
    expect((await call("GET", "/partner/v1/commissions", { key: partner.sandbox.key })).body.commissions).toEqual([]);
    expect((await call("GET", "/v1/commissions", { key: keys.a.sandbox })).body.commissions).toEqual([]);
    const other = await partnerWithKeys();
    expect((await call("GET", "/partner/v1/commissions", { key: other.live.key })).body.commissions).toEqual([]);
    expect((await call("GET", `/partner/v1/commissions/statements/${thisMonth()}`, { key: other.live.key })).body.entries).toEqual([]);
    expectProblem(await call("GET", "/partner/v1/commissions?month=2026-13", { key: partner.live.key }), 400, "invalid_request");
    expectProblem(await call("GET", "/partner/v1/commissions/statements/november", { key: partner.live.key }), 400, "invalid_request");
  });

  it("accrues nothing where no terms were in force, and a clawback window that has passed leaves the commission standing", async () => {
    const routed = await routedLead();
    const offer = await makeOffer(routed.keys.a.live, routed.refA, firmOffer());
    await accept(routed.partner.live.key, routed.lead.id, offer.id);
    // Set after the acceptance: not in force when the offer was accepted.
    await putTerms(routed.a.id, "a-loan", percentage(150));
    expect((await fund(routed.keys.a.live, routed.refA)).status).toBe(200);
    expect(await entriesOfLead(routed.lead.id)).toEqual([]);

    const later = await acceptedWithTerms(percentage(150, { clawback_days: 0 }));
    expect((await fund(later.keys.a.live, later.refA, 10_000.005)).status).toBe(200);
    expect((await entriesOfLead(later.lead.id)).map((e: any) => e.amount)).toEqual([15_000]); // 1.5% of 1,000,001 minor units = 15,000.015
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await call("POST", `/v1/deals/${later.refA}/repayment-outcome`, { key: later.keys.a.live, body: { outcome: "defaulted" } })).status).toBe(200);
    expect((await entriesOfLead(later.lead.id)).map((e: any) => e.kind)).toEqual(["accrued"]);
  });
});

describe("sandbox commission", () => {
  it("a simulated funding accrues a sandbox entry the sandbox key reads, with its event; the live ledger never shows it", async () => {
    const { a, b } = await twoLenderPanel();
    for (const [lender, product] of [[a.id, "a-loan"], [a.id, "a-line"], [b.id, "b-loan"]] as const) await putTerms(lender, product, { currency: "GBP", basis: "flat", flat_amount: 25_000, clawback_days: 30 });
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner.sandbox.key })).status).toBe(200);
    const offers = (await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: partner.sandbox.key })).body.offers;
    expect((await accept(partner.sandbox.key, lead.id, offers[0].id)).status).toBe(200);
    expect((await call("POST", `/partner/v1/sandbox/leads/${lead.id}/simulate`, { key: partner.sandbox.key, body: { event: "fund" } })).status).toBe(200);
    expect(await entriesOfLead(lead.id)).toEqual([{ kind: "accrued", amount: 25_000, environment: "sandbox" }]);
    expect((await eventsFor(lead.id)).filter((e) => e.event === "commission.accrued")).toHaveLength(1);
    const sandboxList = (await call("GET", "/partner/v1/commissions", { key: partner.sandbox.key })).body.commissions;
    expect(sandboxList).toMatchObject([{ kind: "accrued", amount: 25_000, lead_id: lead.id }]);
    expect((await call("GET", "/partner/v1/commissions", { key: partner.live.key })).body.commissions).toEqual([]);
    expect((await call("GET", `/partner/v1/commissions/statements/${thisMonth()}`, { key: partner.sandbox.key })).body).toMatchObject({ environment: "sandbox", totals: [{ net: 25_000 }] });
    // The accrual was written with the funded report, in the sandbox's database; the live one has none.
    const inLive = await env.DB.prepare("select count(*) n from commission_entries where lead_id = ?").bind(lead.id).first<{ n: number }>();
    const inSandbox = await env.DB_SANDBOX.prepare("select count(*) n from commission_entries where lead_id = ?").bind(lead.id).first<{ n: number }>();
    expect({ live: inLive!.n, sandbox: inSandbox!.n }).toEqual({ live: 0, sandbox: 1 });
    // The operator names the environment (live by default), which picks the database it reads and writes.
    const own = `partner_organisation_id=${partner.organisation.id}`;
    expect((await admin("GET", `/commissions?environment=live&${own}`)).body.commissions).toEqual([]);
    expect((await admin("GET", `/commissions?${own}`)).body.commissions).toEqual([]);
    expect((await admin("GET", `/commissions?environment=sandbox&${own}`)).body.commissions).toMatchObject([{ id: sandboxList[0].id, kind: "accrued", amount: 25_000 }]);
    const ownTotals = (body: any) => body.totals.filter((t: any) => t.partner_organisation_id === partner.organisation.id);
    expect(ownTotals((await admin("GET", "/commissions/totals")).body)).toEqual([]);
    expect(ownTotals((await admin("GET", "/commissions/totals?environment=sandbox")).body)).toMatchObject([{ month: thisMonth(), currency: "GBP", accrued: 25_000, net: 25_000, entries: 1 }]);
    expectProblem(await admin("POST", `/commissions/${sandboxList[0].id}/payments`, { payment_reference: "X-1" }), 404, "not_found");
    const sandboxPaid = await admin("POST", `/commissions/${sandboxList[0].id}/payments?environment=sandbox`, { payment_reference: "X-1" });
    expect(sandboxPaid.status).toBe(201);
    // Its audit entry sits in the sandbox's database, in the payment's batch.
    expect((await env.DB_SANDBOX.prepare("select member_id, action, target from portal_audit_log where organisation_id = ? and action = 'commission.paid'").bind(partner.organisation.id).all()).results).toEqual([{ member_id: "operator", action: "commission.paid", target: sandboxPaid.body.id }]);
    expect(ownTotals((await admin("GET", "/commissions/totals?environment=sandbox")).body)).toMatchObject([{ accrued: 25_000, paid: -25_000, net: 0, entries: 2 }]);

    // The partner admin's Commission page (sessions start in the sandbox): the month's statement and its CSV.
    const session = await signedInMember(partner.organisation.id, "admin");
    // Its audit page shows the payment, by the operator, in words.
    const audit = await portal("GET", "/audit", { session });
    expect(audit.text).toContain("Paid commission to the firm");
    expect(audit.text).toContain("The service&#39;s operator");
    expect(audit.text).not.toContain(">operator<");
    const page = await portal("GET", "/commission", { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Accrued (deal funded)");
    expect(page.text).toContain("X-1");
    expect(page.text).toContain(`/portal/commission/${thisMonth()}.csv`);
    expect(page.text).not.toMatch(/Lender [AB]/);
    const download = await portal("GET", `/commission/${thisMonth()}.csv`, { session });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(download.text).toBe((await call("GET", `/partner/v1/commissions/statements/${thisMonth()}`, { key: partner.sandbox.key, headers: { Accept: "text/csv" } })).text);
    expect((await portal("GET", "/commission?month=2026-13", { session })).status).toBe(400);
    expect((await portal("GET", "/commission", { session: await signedInMember(partner.organisation.id, "member") })).status).toBe(404);
    expect((await portal("GET", "/commission", { session: await signedInMember(a.id, "admin") })).status).toBe(404);
  });
});

describe("disclosure in the hub", () => {
  it("tells the business of the commission before it can accept, the amount on How much?, and the deal carries each showing", async () => {
    const routed = await routedLead();
    await putTerms(routed.a.id, "a-loan", percentage(150));
    const offer = await makeOffer(routed.keys.a.live, routed.refA, firmOffer());
    const read = await call("GET", `/partner/v1/leads/${routed.lead.id}`, { key: routed.partner.live.key });
    const hub = new URL(read.body.upload_url).pathname;
    const page = await hubCall("GET", `${hub}/offers/${offer.id}`);
    expect(page.status).toBe(200);
    const disclosure = page.text.indexOf("data-commission-disclosure");
    expect(disclosure).toBeGreaterThan(-1);
    expect(disclosure).toBeLessThan(page.text.indexOf("Accept this offer"));
    expect(page.text).toMatch(/may receive commission from the funding provider/);
    expect(page.text).not.toMatch(/data-commission-amount/);
    const asked = await hubCall("GET", `${hub}/offers/${offer.id}/commission`);
    expect(asked.status).toBe(200);
    expect(asked.text).toMatch(/data-commission-amount/);
    expect(asked.text).toMatch(/600/); // 1.5% of 40,000
    const deal = await call("GET", `/v1/deals/${routed.refA}`, { key: routed.keys.a.live });
    expect(deal.body.commission.disclosures.map((d: any) => d.what)).toEqual(expect.arrayContaining(["nature", "amount"]));
    expect(deal.body.commission.disclosures.find((d: any) => d.what === "amount")).toMatchObject({ offer_id: offer.id, channel: "hub", amount: 60_000, currency: "GBP", disclosure_version: expect.any(String) });
    // Another lender's deal carries none of it.
    expect((await call("GET", `/v1/deals/${routed.refB}`, { key: routed.keys.b.live })).body.commission.disclosures).toEqual([]);
  });
});
