import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { runGuardedBatch } from "../../src/db/batch";
import { findLead, submissionStatements } from "../../src/db/leads/leads";
import { submitLead } from "../../src/services/leads/leads";
import { call } from "../helpers/api";
import { panelOf } from "../helpers/panel";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead } from "./helpers";
import { testDeps } from "../helpers/deps";

async function eventsOf(leadId: string) {
  const { results } = await env.DB.prepare("select event, api, subject_type, organisation_id, environment, detail from events where subject_id = ? order by rowid").bind(leadId).all<any>();
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
    const db = database(env.DB);
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
    const outcome = await submitLead(testDeps(), scope, lead.id, (f) => {
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
