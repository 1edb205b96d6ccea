import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { twoLenderPanel } from "../routing/helpers";

describe("referrals", () => {
  it("creates a lead introduced by the lender, matched against the rest of the panel, and lists it", async () => {
    const { keys } = await twoLenderPanel();
    const res = await call("POST", "/v1/referrals", { key: keys.a.live, body: completeUkLead() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ state: "matched", matched_options: 1 });
    const { env } = await import("cloudflare:workers");
    const { results } = await env.DB.prepare("select lender_organisation_id from deals where lead_id = ?").bind(res.body.id).all<any>();
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
});
