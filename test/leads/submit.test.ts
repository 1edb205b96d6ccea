import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { runGuardedBatch } from "../../src/db/batch";
import { findLead, submissionStatements } from "../../src/db/leads/leads";
import { submitLead } from "../../src/services/leads/leads";
import { ADMIN_TOKEN, call } from "../helpers/api";
import { panelOf, putProducts } from "../helpers/panel";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead, freshCompanyNumber } from "./helpers";
import { gbProduct, twoLenderPanel } from "../routing/helpers";
import { consume, dispatch, receiverBucket, register } from "../webhooks/support/webhooks";
import { sandboxDeps, testDeps } from "../helpers/deps";
import { auditEntries, inData } from "../helpers/data-db";
import { attributionWindowDays } from "../../src/domain/leads/attribution";
import { attributedLead } from "../helpers/keyed-post-cases";

async function eventsOf(leadId: string) {
  const { results } = await inData.prepare("select event, api, subject_type, organisation_id, environment, detail from events where subject_id = ? order by rowid").bind(leadId).all<any>();
  return results;
}

describe("POST /partner/v1/leads/{id}/submit", () => {
  it("names every missing mandatory field of the market and routes nothing", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { country: "GB", trading: { annual_turnover: 1 } });
    const res = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expectProblem(res, 422, "missing_fields");
    expect(res.body.missing).toEqual(["business.company_number", "business.entity_type", "trading.monthly_revenue", "trading.tib_months"]);
    expect(await eventsOf(lead.id)).toEqual([]);
    const after = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    expect(after.body).toMatchObject({ state: "draft", submitted_at: null, matched_options: null });
  });

  it("asks a US lead for its credit score band", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { country: "US", trading: { monthly_revenue: 20_000, tib_months: 40 } });
    const res = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expectProblem(res, 422, "missing_fields");
    expect(res.body.missing).toEqual(["trading.credit_score_band"]);
  });

  it("submits once: out_of_scope while no option matches, events in order, then already_submitted", async () => {
    await panelOf(); // an empty panel, whatever products other files of this worker left
    const { organisation, live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const res = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: lead.id,
      reference: lead.reference,
      state: "out_of_scope",
      matched_options: 0,
      options: [],
      already_submitted: false,
      submitted_at: expect.any(String),
      needs: [],
    });
    const again = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...res.body, already_submitted: true });

    const events = await eventsOf(lead.id);
    expect(events.map((e) => e.event)).toEqual(["lead.submitted", "lead.out_of_scope"]);
    expect(events[0]).toMatchObject({ api: "partner", subject_type: "lead", organisation_id: organisation.id, environment: "live" });
    expect(JSON.parse(events[0].detail)).toEqual({ reference: lead.reference, state: "out_of_scope", matched_options: 0 });

    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key })).body;
    expect(read).toMatchObject({ state: "out_of_scope", matched_options: 0, options: [], submitted_at: res.body.submitted_at });
    expect(read.timeline.map((t: any) => t.event)).toEqual(["lead.created", "lead.submitted", "lead.out_of_scope"]);
  });

  it("lets exactly one of several racing submits win and writes one set of events", async () => {
    await panelOf();
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const results = await Promise.all(Array.from({ length: 5 }, () => call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.already_submitted === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.submitted_at)).size).toBe(1);
    expect((await eventsOf(lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.out_of_scope"]);
  });

  it("writes no state and no events for a submit that lost the race on a stale read", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const created = await createLead(sandbox.key);
    const db = database(env.DB_SANDBOX);
    const scope = { organisationId: organisation.id, environment: "sandbox" as const };
    const stale = (await findLead(db, scope, created.id))!;
    const attempt = (token: string, state: "matched" | "out_of_scope") =>
      // The submit's own statements and batch runner (services/leads submitLead): true when this attempt won.
      runGuardedBatch(
        db,
        submissionStatements(db, scope, stale, { state, matchedOptions: 0, options: [], timeline: [], token, at: new Date().toISOString() }, [
          { organisationId: organisation.id, environment: "sandbox", api: "partner", event: `lead.${state}`, subjectType: "lead", subjectId: created.id },
        ], []),
      ).then((changes) => changes === 1);
    expect(await attempt("first", "out_of_scope")).toBe(true);
    expect(await attempt("second", "matched")).toBe(false);
    expect((await findLead(db, scope, created.id))!.state).toBe("out_of_scope");
    expect((await eventsOf(created.id)).map((e) => e.event)).toEqual(["lead.out_of_scope"]);
  });

  it("moves to matched when the matcher finds options, through the one routing function", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const options = [{ product_family: "business_loan", label: "Business loan", options: 2 }];
    const scope = { organisationId: organisation.id, environment: "sandbox" as const };
    let facts: any;
    const outcome = await submitLead(sandboxDeps(), scope, lead.id, (f) => {
      facts = f;
      return { matched_options: 2, options, reasons: [], matchedProducts: [] };
    });
    expect(outcome.alreadySubmitted).toBe(false);
    expect(outcome.lead).toMatchObject({ state: "matched", matchedOptions: 2, options });
    expect(facts.figures).toMatchObject({ monthly_revenue: 37_500, monthly_revenue_basis: "band_midpoint", amount: 40_000 });
    expect((await eventsOf(lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.matched"]);
    const res = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expect(res.body).toMatchObject({ state: "matched", matched_options: 2, options, already_submitted: true });
  });

  it("refuses changes after submission with 409 lead_submitted", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, completeUkLead());
    await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expectProblem(await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body: { partner_reference: "x" } }), 409, "lead_submitted");
    expectProblem(
      await call("PUT", `/partner/v1/leads/${lead.id}/significant-persons`, { key: sandbox.key, body: { significant_persons: [] } }),
      409,
      "lead_submitted",
    );
  });

  it("answers a lead of another account with 404 not_found", async () => {
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    const lead = await createLead(a.sandbox.key);
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: b.sandbox.key }), 404, "not_found");
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: a.live.key }), 404, "not_found");
    expect(await eventsOf(lead.id)).toEqual([]);
  });
});

/** A complete UK lead naming `companyNumber` as typed. */
const leadFor = (companyNumber: string) => {
  const base = completeUkLead();
  return { ...base, business: { ...base.business, company_number: companyNumber } };
};
const submit = (key: string, id: string) => call("POST", `/partner/v1/leads/${id}/submit`, { key });
const reasonsOf = async (key: string, id: string) => (await call("GET", `/partner/v1/leads/${id}`, { key })).body.out_of_scope_reasons;
const dealsOf = async (leadId: string) => (await inData.prepare("select ref, lender_organisation_id from deals where lead_id = ?").bind(leadId).all<any>()).results;

describe("attribution: one business, one introducer", () => {
  it("the same partner's second open lead for the company is 409 duplicate_lead naming the first; its draft stays", async () => {
    await twoLenderPanel();
    const { live } = await partnerWithKeys();
    const number = freshCompanyNumber();
    const first = await createLead(live.key, leadFor(number));
    expect((await submit(live.key, first.id)).body.state).toBe("matched");
    // Typed another way, the same company (GB: spaces out, upper case, zero-padded to 8).
    const second = await createLead(live.key, leadFor(` ${number.slice(0, 4)} ${number.slice(4)} `));
    const res = await submit(live.key, second.id);
    expectProblem(res, 409, "duplicate_lead");
    expect(res.body.existing_lead_id).toBe(first.id);
    expect((await call("GET", `/partner/v1/leads/${second.id}`, { key: live.key })).body.state).toBe("draft");
    expect(await dealsOf(second.id)).toEqual([]);
  });

  it("another partner's lead is ended out_of_scope already_introduced, routed to no lender, with no trace of the first partner", async () => {
    const panel = await twoLenderPanel();
    // A product the lead's 40,000 misses by its minimum, so an amount unlock exists on this panel.
    await putProducts(panel.c.id, [gbProduct("c-mid", { min_amount: 50_000 })]);
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    const number = freshCompanyNumber();
    const first = await createLead(a.live.key, { ...leadFor(number), partner_reference: "a-secret-ref" });
    const receiver = receiverBucket();
    await register("partner", b.live.key, { url: receiver.url() });
    expect((await submit(a.live.key, first.id)).body.state).toBe("matched");
    const dealsBefore = (await env.DB.prepare("select count(*) n from deals").first<{ n: number }>())!.n;

    const later = await createLead(b.live.key, leadFor(number));
    const res = await submit(b.live.key, later.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: "out_of_scope", matched_options: 0, options: [], already_submitted: false });
    const read = (await call("GET", `/partner/v1/leads/${later.id}`, { key: b.live.key })).body;
    expect(read.attribution).toBeNull();
    expect((await call("GET", `/partner/v1/leads/${first.id}`, { key: a.live.key })).body.attribution).toEqual({ since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect(read.out_of_scope_reasons).toEqual([{ code: "already_introduced", detail: expect.any(String) }]);
    // No figure would route a company another participant introduced: the lead has nothing to unlock.
    expect(read.unlocks).toEqual([]);
    // …though the first partner's lead, on the same panel, has an amount that would add C's option.
    expect((await call("GET", `/partner/v1/leads/${first.id}`, { key: a.live.key })).body.unlocks).toEqual([{ field: "funding.amount", needed: 50_000, options_added: 1 }]);
    expect(read.timeline.find((t: any) => t.event === "lead.out_of_scope").reasons).toEqual(read.out_of_scope_reasons);
    expect(await dealsOf(later.id)).toEqual([]);
    expect((await env.DB.prepare("select count(*) n from deals").first<{ n: number }>())!.n).toBe(dealsBefore);
    const laterEvents = await eventsOf(later.id);
    expect(laterEvents.map((e) => e.event)).toEqual(["lead.submitted", "lead.out_of_scope"]);
    expect(JSON.parse(laterEvents[1].detail).reasons).toEqual(read.out_of_scope_reasons);

    // Everything the second partner can read: the submit, the lead, its list, its events, its webhook bodies.
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const bodies = (await receiver.records()).map((r) => r.body);
    expect(bodies.length).toBeGreaterThan(0);
    const seen = [
      JSON.stringify(res.body),
      (await call("GET", `/partner/v1/leads/${later.id}`, { key: b.live.key })).text,
      (await call("GET", "/partner/v1/leads", { key: b.live.key })).text,
      (await call("GET", "/partner/v1/events", { key: b.live.key })).text,
      ...bodies,
    ].join("\n");
    const aOrganisation = (await env.DB.prepare("select name from organisations where id = ?").bind(a.organisation.id).first<{ name: string }>())!.name;
    for (const trace of [a.organisation.id, aOrganisation, first.id, first.reference, "a-secret-ref", "Lender A", "Lender B", panel.a.id, panel.b.id]) {
      expect(seen.includes(trace), trace).toBe(false);
    }
  });

  it("a company whose first lead ended without funding can be introduced again", async () => {
    const panel = await twoLenderPanel();
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    const number = freshCompanyNumber();
    const first = await createLead(a.live.key, leadFor(number));
    expect((await submit(a.live.key, first.id)).body.state).toBe("matched");
    for (const deal of await dealsOf(first.id)) {
      const key = deal.lender_organisation_id === panel.a.id ? panel.keys.a.live : panel.keys.b.live;
      expect((await call("POST", `/v1/deals/${deal.ref}/status`, { key, body: { status: "declined", reason: "affordability" } })).status).toBe(200);
    }
    expect((await call("GET", `/partner/v1/leads/${first.id}`, { key: a.live.key })).body.state).toBe("declined");
    const later = await createLead(b.live.key, leadFor(number));
    expect((await submit(b.live.key, later.id)).body.state).toBe("matched");
  });

  it("a funded lead keeps its company for the window (90 days), then another partner's lead is routed", async () => {
    await twoLenderPanel();
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    const number = freshCompanyNumber();
    const first = await createLead(a.live.key, leadFor(number));
    expect((await submit(a.live.key, first.id)).body.state).toBe("matched");
    // Funded 10 days ago: still attributed.
    const fundedAgo = async (days: number) => {
      const at = new Date(Date.now() - days * 86_400_000).toISOString();
      await env.DB.batch([
        env.DB.prepare("update leads set state = 'funded', updated_at = ? where id = ?").bind(at, first.id),
        env.DB.prepare("update lead_routing set outcome = 'funded', outcome_at = ?, funded_amount = 40000 where lead_id = ?").bind(at, first.id),
      ]);
    };
    await fundedAgo(10);
    const within = await createLead(b.live.key, leadFor(number));
    expect((await submit(b.live.key, within.id)).body.state).toBe("out_of_scope");
    expect(await reasonsOf(b.live.key, within.id)).toEqual([{ code: "already_introduced", detail: expect.any(String) }]);
    // Funded 91 days ago: the window has ended by itself.
    await fundedAgo(91);
    const after = await createLead(b.live.key, leadFor(number));
    expect((await submit(b.live.key, after.id)).body.state).toBe("matched");
    expect(attributionWindowDays(undefined)).toBe(90);
    expect(attributionWindowDays("30")).toBe(30);
    expect(attributionWindowDays("0")).toBe(90);
    expect(attributionWindowDays("ninety")).toBe(90);
  });

  it("the same partner's new lead for a company it funded is not a duplicate", async () => {
    await twoLenderPanel();
    const { live } = await partnerWithKeys();
    const number = freshCompanyNumber();
    const first = await createLead(live.key, leadFor(number));
    expect((await submit(live.key, first.id)).body.state).toBe("matched");
    await env.DB.batch([
      env.DB.prepare("update leads set state = 'funded' where id = ?").bind(first.id),
      env.DB.prepare("update lead_routing set outcome = 'funded', outcome_at = ?, funded_amount = 40000 where lead_id = ?").bind(new Date().toISOString(), first.id),
    ]);
    const next = await createLead(live.key, leadFor(number));
    expect((await submit(live.key, next.id)).body.state).toBe("matched");
  });

  it("the operator lists attributions and releases one, audited with its reason; a new lead is then routed", async () => {
    const { id, lead, partner } = await attributedLead();
    const asOperator = { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } };
    const list = await call("GET", "/admin/v1/attributions?environment=live", asOperator);
    expect(list.status).toBe(200);
    expect(list.body.attributions).toContainEqual(expect.objectContaining({ id, lead_id: lead.id, organisation_id: partner.organisation.id, active: true, released_at: null }));
    const noReason = await call("POST", `/admin/v1/attributions/${id}/release`, { ...asOperator, body: {} });
    expectProblem(noReason, 400, "invalid_request");
    expect(noReason.body.error.field).toBe("reason");
    expectProblem(await call("POST", "/admin/v1/attributions/att_unknown/release", { ...asOperator, body: { reason: "x" } }), 404, "not_found");

    const released = await call("POST", `/admin/v1/attributions/${id}/release`, { ...asOperator, body: { reason: "Handed over by agreement." } });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ id, active: false, release_reason: "Handed over by agreement.", released_at: expect.any(String) });
    const audit = { results: await auditEntries<any>("organisation_id, member_id, action, target", "target = ?", id) };
    expect(audit.results).toEqual([{ organisation_id: partner.organisation.id, member_id: "operator", action: "attribution.released", target: id }]);
    expectProblem(await call("POST", `/admin/v1/attributions/${id}/release`, { ...asOperator, body: { reason: "again" } }), 409, "conflict");
    expect((await call("GET", "/admin/v1/attributions?environment=live", asOperator)).body.attributions.map((a: any) => a.id)).not.toContain(id);

    const other = await partnerWithKeys();
    const next = await createLead(other.live.key, leadFor(lead.business.company_number));
    expect((await submit(other.live.key, next.id)).body.state).toBe("matched");
  });

  it("three partners submitting the same company at once end with exactly one routed lead (20 runs)", async () => {
    await twoLenderPanel();
    const partners = await Promise.all([partnerWithKeys(), partnerWithKeys(), partnerWithKeys()]);
    for (let run = 0; run < 20; run++) {
      const number = freshCompanyNumber();
      const leads = await Promise.all(partners.map((p) => createLead(p.live.key, leadFor(number))));
      const answers = await Promise.all(leads.map((lead, i) => submit(partners[i]!.live.key, lead.id)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      const states = answers.map((a) => a.body.state).sort();
      expect(states, `run ${run}`).toEqual(["matched", "out_of_scope", "out_of_scope"]);
      const routed = (await Promise.all(leads.map((l) => dealsOf(l.id)))).filter((d) => d.length > 0);
      expect(routed).toHaveLength(1);
    }
  });

  it("sandbox: a fixture number can be submitted again and again; the documented numbers give each outcome", async () => {
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    for (let i = 0; i < 2; i++) {
      const again = await createLead(a.sandbox.key, leadFor("00000001"));
      expect((await submit(a.sandbox.key, again.id)).body.state).not.toBe("out_of_scope");
    }
    const introduced = await createLead(a.sandbox.key, leadFor("00000022"));
    expect((await submit(a.sandbox.key, introduced.id)).body.state).toBe("out_of_scope");
    expect(await reasonsOf(a.sandbox.key, introduced.id)).toEqual([{ code: "already_introduced", detail: expect.any(String) }]);
    // 00000021 is attributed as a live company would be; release it afterwards so reruns start clean.
    await env.DB_SANDBOX.prepare("update company_claims set active = 0 where environment = 'sandbox' and company_key = 'GB:register:00000021'").run();
    const held = await createLead(a.sandbox.key, leadFor("00000021"));
    expect((await submit(a.sandbox.key, held.id)).status).toBe(200);
    const duplicate = await createLead(a.sandbox.key, leadFor("00000021"));
    expectProblem(await submit(a.sandbox.key, duplicate.id), 409, "duplicate_lead");
    const other = await createLead(b.sandbox.key, leadFor("00000021"));
    expect((await submit(b.sandbox.key, other.id)).body.state).toBe("out_of_scope");
    expect(await reasonsOf(b.sandbox.key, other.id)).toEqual([{ code: "already_introduced", detail: expect.any(String) }]);
    // 00000023: the attribution is recorded as released at once, so every partner's next lead is routed, rerun after rerun.
    for (const [key, label] of [[a.sandbox.key, "a"], [b.sandbox.key, "b"], [a.sandbox.key, "a again"]] as const) {
      const released = await createLead(key, leadFor("00000023"));
      const answer = await submit(key, released.id);
      expect(answer.status, label).toBe(200);
      expect(answer.body.state, label).not.toBe("out_of_scope");
      expect(await reasonsOf(key, released.id)).not.toContainEqual(expect.objectContaining({ code: "already_introduced" }));
      expect((await call("GET", `/partner/v1/leads/${released.id}`, { key })).body.attribution).toBeNull();
      const row = await inData.prepare("select active, released_at, release_reason, since from company_claims where lead_id = ?").bind(released.id).first<{ active: number; released_at: string; release_reason: string; since: string }>();
      expect(row).toMatchObject({ active: 0, released_at: row!.since, release_reason: expect.stringContaining("00000023") });
    }
    // A sandbox claim never blocks a live lead.
    const live = await createLead(b.live.key, leadFor("00000021"));
    expect((await submit(b.live.key, live.id)).status).toBe(200);
    expect(await reasonsOf(b.live.key, live.id)).not.toContainEqual(expect.objectContaining({ code: "already_introduced" }));
  });

  it("prequalification says nothing about attribution", async () => {
    const { live } = await partnerWithKeys();
    const doc = (await call("GET", "/partner/v1/openapi.json")).body;
    expect(JSON.stringify(doc.paths["/prequalification"] ?? doc.paths[Object.keys(doc.paths).find((p) => p.includes("prequal"))!])).not.toContain("already_introduced");
    void live;
  });
});
