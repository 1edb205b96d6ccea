import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { portal } from "../helpers/portal";
import { liveSession } from "../portal/lender/support";
import { issueKey, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead, person } from "../leads/helpers";
import { putProducts } from "../helpers/panel";
import { countInData, inData } from "../helpers/data-db";

import { eventsFor, eventsNamed, gbProduct, submittedLead, twoLenderPanel } from "./helpers";

describe("submit routes through the real matcher", () => {
  it("agrees with prequalification on the same facts", async () => {
    await twoLenderPanel();
    const { live } = await partnerWithKeys();
    const body = completeUkLead();
    const pre = await call("POST", "/partner/v1/prequalification", {
      key: live.key,
      body: { country: "GB", business: { industry: body.business.industry }, funding: { purpose: body.funding.purpose, amount: body.funding.amount }, trading: body.trading },
    });
    expect(pre.status).toBe(200);
    const { submit } = await submittedLead(live.key, { ...body, funding: { amount: 40_000, purpose: "working_capital" } });
    expect(submit.state).toBe("matched");
    expect(submit.matched_options).toBe(pre.body.matched_options);
    expect(submit.options).toEqual(pre.body.product_families);
    expect(submit.options).toEqual([
      { product_family: "business_loan", label: "Business loan", options: 2 },
      { product_family: "line_of_credit", label: "Line of credit", options: 1 },
    ]);
    expect(JSON.stringify(submit)).not.toMatch(/Lender [ABC]/);
  });

  it("creates exactly one deal per matched lender for a live lead, in the submit's batch, with deal.created", async () => {
    const { a, b, c } = await twoLenderPanel();
    const { live } = await partnerWithKeys();
    const { lead, submit } = await submittedLead(live.key);
    expect(submit).toMatchObject({ state: "matched", matched_options: 2, already_submitted: false });
    const { results: deals } = await inData.prepare("select ref, lender_organisation_id, lender_status, test from deals where lead_id = ?").bind(lead.id).all<any>();
    expect(deals.map((d) => d.lender_organisation_id).sort()).toEqual([a.id, b.id].sort());
    for (const d of deals) {
      expect(d.ref).toMatch(/^DL-[2-9A-HJKMNP-Z]{8}$/);
      expect(d.lender_status).toBe("new");
      expect(await eventsFor(d.ref)).toEqual([{ organisation_id: d.lender_organisation_id, api: "lender", event: "deal.created", subject_type: "deal", subject_id: d.ref, detail: {} }]);
    }
    expect(await eventsNamed("deal.created", c.id)).toEqual([]);
    expect((await eventsFor(lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.matched"]);

    const again = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key });
    expect(again.body).toMatchObject({ state: "matched", already_submitted: true });
    const { results: after } = await env.DB.prepare("select count(*) as n from deals where lead_id = ?").bind(lead.id).all<any>();
    expect(after[0].n).toBe(2);
  });

  it("routes concurrent submits once", async () => {
    await twoLenderPanel();
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const answers = await Promise.all(Array.from({ length: 4 }, () => call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((r) => !r.body.already_submitted)).toHaveLength(1);
    const { results } = await env.DB.prepare("select count(*) as n from deals where lead_id = ?").bind(lead.id).all<any>();
    expect(results[0].n).toBe(2);
  });

  it("presents a sandbox lead's simulated offers once when submits race", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const answers = await Promise.all(Array.from({ length: 4 }, () => call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((r) => !r.body.already_submitted)).toHaveLength(1);
    expect(new Set(answers.map((r) => r.body.state))).toEqual(new Set(["offers_available"]));
    expect(await countInData("select count(*) as n from offers where lead_id = ?", lead.id)).toBe(2);
    expect((await eventsFor(lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available"]);
  });

  it("gives a sandbox lead no deal and deterministic simulated offers, presented at once", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const first = await submittedLead(sandbox.key);
    const second = await submittedLead(sandbox.key);
    expect(first.submit.state).toBe("offers_available");
    const { results } = await env.DB.prepare("select count(*) as n from deals where lead_id in (?, ?)").bind(first.lead.id, second.lead.id).all<any>();
    expect(results[0].n).toBe(0);
    const offers = await call("GET", `/partner/v1/leads/${first.lead.id}/offers`, { key: sandbox.key });
    expect(offers.status).toBe(200);
    expect(offers.body).toMatchObject({ lead_id: first.lead.id, simulated: true });
    expect(offers.body.offers).toHaveLength(2);
    for (const o of offers.body.offers) {
      expect(o).toMatchObject({ state: "presented", currency: "GBP", amount: 40_000 });
      expect(o.label).not.toMatch(/Lender/);
    }
    // The same lead facts and lead id give the same terms: recompute through the helper and compare.
    const again = await call("POST", `/partner/v1/sandbox/leads/${first.lead.id}/simulate`, { key: sandbox.key, body: { event: "offers" } });
    expect(again.status).toBe(200);
    const terms = (list: any[]) => list.map(({ label, amount, annual_rate_pct, factor_rate, term_months, fees, total_repayment }) => ({ label, amount, annual_rate_pct, factor_rate, term_months, fees, total_repayment }));
    expect(terms(again.body.offers)).toEqual(terms(offers.body.offers));
    expect((await eventsFor(first.lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available"]);
    const lead = await call("GET", `/partner/v1/leads/${first.lead.id}`, { key: sandbox.key });
    expect(lead.body.state).toBe("offers_available");
    expect(lead.body.offers).toHaveLength(2);
    expect(lead.body.timeline.map((t: any) => t.event)).toEqual(["lead.created", "lead.submitted", "lead.matched", "lead.offers_available"]);
  });

  it("keeps the matcher's reasons on an out-of-scope lead", async () => {
    await twoLenderPanel();
    const { live } = await partnerWithKeys();
    const { lead, submit } = await submittedLead(live.key, { ...completeUkLead(), funding: { amount: 5_000, purpose: "working_capital" } });
    expect(submit).toMatchObject({ state: "out_of_scope", matched_options: 0, options: [] });
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key });
    expect(read.body.out_of_scope_reasons.map((r: any) => r.code)).toContain("amount_below_minimum");
    const { results } = await env.DB.prepare("select count(*) as n from deals where lead_id = ?").bind(lead.id).all<any>();
    expect(results[0].n).toBe(0);
    expect((await eventsFor(lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.out_of_scope"]);
  });

  it("leaves a product out while the lead lacks its requirement, says so in needs, and routes a fresh lead that holds it", async () => {
    const { b } = await twoLenderPanel();
    // Lender B lends to a sole trader under 100,000 only against a personal guarantee.
    const guaranteed = await putProducts(b.id, [
      gbProduct("b-loan", {
        label: "Term loan 6-24 months",
        requires: [{ field: "significant_persons[].guarantee", when: { entity_types: ["sole_trader"], amount_below: 100_000 } }],
      }),
    ]);
    expect(guaranteed.body.products[0].requires).toEqual([{ field: "significant_persons[].guarantee", when: { entity_types: ["sole_trader"], amount_below: 100_000 } }]);
    const partner = await partnerWithKeys();
    const { live } = partner;
    const soleTrader = (guarantee: boolean | null) => ({
      ...completeUkLead(),
      business: { ...completeUkLead().business, entity_type: "sole_trader" },
      significant_persons: [person({ guarantee })],
    });

    const without = await submittedLead(live.key, soleTrader(null));
    expect(without.submit).toMatchObject({ state: "matched", matched_options: 1, needs: [{ fields: ["significant_persons[].guarantee"], options_added: 1 }] });
    const { results: routedTo } = await env.DB.prepare("select lender_organisation_id from deals where lead_id = ?").bind(without.lead.id).all<any>();
    expect(routedTo.map((d) => d.lender_organisation_id)).not.toContain(b.id);
    const read = (await call("GET", `/partner/v1/leads/${without.lead.id}`, { key: live.key })).body;
    expect(read.needs).toEqual(without.submit.needs);
    expect(read.unlocks).toContainEqual({ field: "significant_persons[].guarantee", needed: true, options_added: 1 });
    expect(read.significant_persons[0].guarantee).toBeNull();
    expect(JSON.stringify(read)).not.toMatch(/Lender [ABC]/);
    // The portal's lead page says it in words.
    const page = (await portal("GET", `/leads/${without.lead.id}`, { session: await liveSession(partner.organisation.id) })).text;
    expect(page).toContain("With a personal guarantee from a significant person: 1 more option");

    const withGuarantee = await submittedLead(live.key, soleTrader(true));
    expect(withGuarantee.submit).toMatchObject({ state: "matched", matched_options: 2, needs: [] });
    const { results: nowRoutedTo } = await env.DB.prepare("select lender_organisation_id from deals where lead_id = ?").bind(withGuarantee.lead.id).all<any>();
    expect(nowRoutedTo.map((d) => d.lender_organisation_id)).toContain(b.id);
    // The lender reads the guarantee on its deal.
    const deal = await env.DB.prepare("select ref from deals where lead_id = ? and lender_organisation_id = ?").bind(withGuarantee.lead.id, b.id).first<any>();
    const lenderKey = (await issueKey(b.id, "live")).key;
    const lenderView = await call("GET", `/v1/deals/${deal.ref}`, { key: lenderKey });
    expect(lenderView.status).toBe(200);
    expect(lenderView.text).toContain('"guarantee":true');

    // A limited company's lead is not a sole trader's: the requirement does not apply.
    const company = await submittedLead(live.key, { ...completeUkLead(), significant_persons: [person()] });
    expect(company.submit).toMatchObject({ matched_options: 2, needs: [] });
  });

  it("answers prequalification with a requirement's unlock, which holds nothing it was not given", async () => {
    const { a } = await twoLenderPanel();
    await putProducts(a.id, [gbProduct("a-loan", { max_amount: 500_000, requires: [{ field: "statements.6_months", when: { amount_at_least: 250_000 } }] })]);
    const { live } = await partnerWithKeys();
    const body = completeUkLead();
    const pre = await call("POST", "/partner/v1/prequalification", {
      key: live.key,
      body: { country: "GB", business: { industry: body.business.industry }, funding: { purpose: "working_capital", amount: 260_000 }, trading: body.trading },
    });
    expect(pre.status).toBe(200);
    expect(pre.body.reasons.map((r: any) => r.code)).toContain("requirements_not_met");
    expect(pre.body.unlocks).toContainEqual({ field: "statements.6_months", needed: true, options_added: 1 });
  });

  it("refuses a requirement the reference list does not have, naming the field", async () => {
    const { a } = await twoLenderPanel();
    const res = await putProducts(a.id, [gbProduct("a-loan", { requires: [{ field: "favourite_colour" }] })]);
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e: any) => e.field) ?? [res.body.field]).toContain("products.0.requires.0.field");
    const empty = await putProducts(a.id, [gbProduct("a-loan", { requires: [{ field: "contact.phone", when: {} }] })]);
    expect(empty.status).toBe(400);
  });
});
