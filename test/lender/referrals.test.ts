import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { completeUkLead } from "../leads/helpers";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { submittedLead, twoLenderPanel } from "../routing/helpers";
import { inData } from "../helpers/data-db";

describe("referrals", () => {
  it("creates a lead introduced by the lender, matched against the rest of the panel, and lists it", async () => {
    const { keys } = await twoLenderPanel();
    const res = await call("POST", "/v1/referrals", { key: keys.a.live, body: completeUkLead() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ state: "matched", matched_options: 1 });
    const { env } = await import("cloudflare:workers");
    const { results } = await inData.prepare("select lender_organisation_id from deals where lead_id = ?").bind(res.body.id).all<any>();
    expect(results).toHaveLength(1);
    const list = await call("GET", "/v1/referrals", { key: keys.a.live });
    expect(list.body).toEqual({ referrals: [{ id: res.body.id, reference: res.body.reference, state: "matched", matched_options: 1, created_at: expect.any(String), updated_at: expect.any(String) }], next_cursor: null });
    expect((await call("GET", "/v1/referrals", { key: keys.b.live })).body.referrals).toEqual([]);
  });

  it("refuses a referral missing mandatory fields (422) and unknown keys (400)", async () => {
    const { keys } = await twoLenderPanel();
    const missing = await call("POST", "/v1/referrals", { key: keys.a.live, body: { country: "GB" } });
    expectProblem(missing, 422, "missing_fields");
    expect(missing.body.missing).toContain("business.company_number");
    expectProblem(await call("POST", "/v1/referrals", { key: keys.a.live, body: { ...completeUkLead(), lender: "x" } }), 400, "invalid_request");
  });

  it("pages referrals newest first with a keyset cursor, scoped to the key's environment", async () => {
    const { keys } = await twoLenderPanel();
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("POST", "/v1/referrals", { key: keys.a.live, body: completeUkLead() });
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const first = await call("GET", "/v1/referrals?limit=2", { key: keys.a.live });
    expect(first.status).toBe(200);
    expect(first.body.referrals).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await call("GET", `/v1/referrals?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: keys.a.live });
    expect(second.body.referrals).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    expect([...first.body.referrals, ...second.body.referrals].map((r: any) => r.id).sort()).toEqual([...made].sort());
    expect((await call("GET", "/v1/referrals", { key: keys.a.sandbox })).body.referrals).toEqual([]);
    expectProblem(await call("GET", `/v1/referrals?cursor=${first.body.next_cursor}x`, { key: keys.a.live }), 400, "invalid_request");
    expectProblem(await call("GET", `/v1/referrals?cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: keys.b.live }), 400, "invalid_request");
    expectProblem(await call("GET", "/v1/referrals?limit=0", { key: keys.a.live }), 400, "invalid_request");
    expectProblem(await call("GET", "/v1/referrals?limit=101", { key: keys.a.live }), 400, "invalid_request");
  });

  it("one business, one introducer: a referral claims its company, and is not routed when another introducer holds it", async () => {
    const { a, keys } = await twoLenderPanel();
    const partner = await partnerWithKeys();
    const leadOf = (companyNumber: string) => {
      const base = completeUkLead();
      return { ...base, business: { ...base.business, company_number: companyNumber } };
    };
    // A partner introduced the company first: the referral is stored, answered 201, and routed to no one.
    const first = await submittedLead(partner.live.key, leadOf("07123456"));
    expect(first.submit.state).toBe("matched");
    const later = await call("POST", "/v1/referrals", { key: keys.a.live, body: leadOf("7123456") });
    expect(later.status).toBe(201);
    expect(later.body).toMatchObject({ state: "out_of_scope", matched_options: 0 });
    const { env } = await import("cloudflare:workers");
    expect((await env.DB.prepare("select count(*) as n from deals where lead_id = ?").bind(later.body.id).first<any>()).n).toBe(0);
    const seen = JSON.stringify([later.body, (await call("GET", "/v1/referrals", { key: keys.a.live })).body]);
    for (const trace of [partner.organisation.id, first.lead.id, first.lead.reference]) expect(seen).not.toContain(trace);
    // The lender referred the company first: it keeps it; a partner's later lead is already_introduced, naming no lender.
    const referred = await call("POST", "/v1/referrals", { key: keys.a.live, body: leadOf("07654321") });
    expect(referred.body).toMatchObject({ state: "matched", matched_options: 1 });
    const again = await call("POST", "/v1/referrals", { key: keys.a.live, body: leadOf("07654321") });
    expect(again.body).toMatchObject({ state: "out_of_scope", matched_options: 0 });
    const partnerLead = await submittedLead(partner.live.key, leadOf("07654321"));
    expect(partnerLead.submit.state).toBe("out_of_scope");
    const read = (await call("GET", `/partner/v1/leads/${partnerLead.lead.id}`, { key: partner.live.key })).body;
    expect(read.out_of_scope_reasons).toEqual([{ code: "already_introduced", detail: expect.any(String) }]);
    const partnerSees = JSON.stringify([partnerLead.submit, read]);
    for (const trace of [a.id, "Lender A", referred.body.id, referred.body.reference]) expect(partnerSees).not.toContain(trace);
  });
});
