import { describe, expect, it } from "vitest";
import { call, type ApiResponse } from "./helpers/api";
import { expectProblem, partnerWithKeys } from "./helpers/seed";
import { createLead } from "./leads/helpers";
import { routedLead } from "./lender/helpers";

/** `d1;desc="2 round trips";dur=1.2, do;desc="1 call";dur=0.3, app;dur=4.0` → the counts. */
function roundTrips(res: ApiResponse) {
  const header = res.headers.get("Server-Timing") ?? "";
  const count = (name: string) => {
    const match = new RegExp(`(?:^|, )${name};desc="(\\d+) [a-z ]+";dur=\\d+(\\.\\d+)?`).exec(header);
    if (!match) throw new Error(`no ${name} entry in Server-Timing: ${header}`);
    return Number(match[1]);
  };
  expect(header).toMatch(/app;dur=\d+(\.\d+)?$/);
  return { d1: count("d1"), durableObjects: count("do") };
}

const prequalification = {
  country: "GB",
  funding: { purpose: "working_capital", amount: 50_000 },
  trading: { monthly_revenue: 30_000, tib_months: 36 },
};

describe("Server-Timing: where each request's time goes", () => {
  it("reports nothing spent by the health check", async () => {
    const res = await call("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(roundTrips(res)).toEqual({ d1: 0, durableObjects: 0 });
  });

  it("authenticates and counts in one Durable Object call and no D1 query, by key and by token", async () => {
    const { sandbox } = await partnerWithKeys();
    const byKey = await call("GET", "/partner/v1/enums/industries", { key: sandbox.key });
    expect(byKey.status).toBe(200);
    expect(roundTrips(byKey)).toEqual({ d1: 0, durableObjects: 1 });

    const token = (
      await call("POST", "/partner/v1/oauth/token", { body: { grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key } })
    ).body.access_token;
    const byToken = await call("GET", "/partner/v1/enums/industries", { token });
    expect(byToken.status).toBe(200);
    expect(roundTrips(byToken)).toEqual({ d1: 0, durableObjects: 1 });
  });

  it("prequalifies without a D1 query once the isolate holds the panel", async () => {
    const { sandbox } = await partnerWithKeys();
    await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body: prequalification });
    const res = await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body: prequalification });
    expect(res.status).toBe(200);
    expect(roundTrips(res)).toEqual({ d1: 0, durableObjects: 1 });
  });

  it("opens a lead in one write (its bookmark handed to the key's object: one more call) and reads one (or a page of them) in one round trip", async () => {
    const { sandbox } = await partnerWithKeys();
    const created = await call("POST", "/partner/v1/leads", { key: sandbox.key, body: { country: "GB", business: { name: "Timing Ltd" } } });
    expect(created.status).toBe(201);
    expect(roundTrips(created)).toEqual({ d1: 1, durableObjects: 2 });

    const read = await call("GET", `/partner/v1/leads/${created.body.id}`, { key: sandbox.key });
    expect(read.status).toBe(200);
    expect(roundTrips(read)).toEqual({ d1: 1, durableObjects: 1 });

    const list = await call("GET", "/partner/v1/leads?limit=25", { key: sandbox.key });
    expect(list.status).toBe(200);
    expect(roundTrips(list)).toEqual({ d1: 1, durableObjects: 1 });
  });

  it("submits with the read the decision needs and one write batch", async () => {
    const { sandbox } = await partnerWithKeys();
    // The panel is held by the isolate (60 s): warmed here, not by the test before, which may have run longer ago than that.
    await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body: prequalification });
    const lead = await createLead(sandbox.key);
    const res = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expect(res.status).toBe(200);
    expect(roundTrips(res)).toEqual({ d1: 2, durableObjects: 2 });
  });

  it("reads a submitted lead, with its routing and offers, in one round trip", async () => {
    const { partner, lead } = await routedLead();
    const res = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(res.status).toBe(200);
    expect(res.body.state).not.toBe("draft");
    expect(roundTrips(res)).toEqual({ d1: 1, durableObjects: 1 });
  });

  it("counts the lender's deal list and deal read", async () => {
    const { keys, refA } = await routedLead();
    const list = await call("GET", "/v1/deals", { key: keys.a.live });
    expect(list.status).toBe(200);
    expect(roundTrips(list)).toEqual({ d1: 1, durableObjects: 1 });
    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    expect(deal.status).toBe(200);
    expect(roundTrips(deal)).toEqual({ d1: 1, durableObjects: 1 });
  });

  it("is on refusals too: a failed authentication costs the address limiter's call and no D1 query", async () => {
    const malformed = await call("GET", "/partner/v1/me", { key: "not-a-key" });
    expectProblem(malformed, 401, "unauthorized");
    expect(roundTrips(malformed)).toEqual({ d1: 0, durableObjects: 1 });

    const unknown = await call("GET", "/partner/v1/me", { key: `rfs_ptr_live_${"q".repeat(16)}_${"r".repeat(40)}` });
    expectProblem(unknown, 401, "unauthorized");
    // The key's object (which finds no key) and the address limiter.
    expect(roundTrips(unknown)).toEqual({ d1: 0, durableObjects: 2 });
  });
});
