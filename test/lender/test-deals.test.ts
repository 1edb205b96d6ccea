import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { eventsFor } from "../routing/helpers";
import { firmOffer } from "./helpers";

describe("test deals", () => {
  it("creates a test deal routed only to the caller, firing deal.created, that behaves like any deal", async () => {
    const { organisation, sandbox } = await lenderWithKeys();
    const res = await call("POST", "/v1/test/deals", { key: sandbox.key, body: { country: "US", trading: { monthly_revenue: 30_000, tib_months: 30, credit_score_band: "670_739" } } });
    expect(res.status).toBe(201);
    expect(res.headers.get("Location")).toBe(`http://api.test/v1/deals/${res.body.ref}`);
    expect(res.body).toMatchObject({ test: true, environment: "sandbox", lender_status: "new", market: { country: "US", region: null, credit_score_band: "670_739", ein: null, monthly_revenue: 30_000 } });
    const ref = res.body.ref;
    expect(await eventsFor(ref)).toEqual([{ organisation_id: organisation.id, api: "lender", event: "deal.created", subject_type: "deal", subject_id: ref, detail: {} }]);
    expect((await call("POST", `/v1/deals/${ref}/status`, { key: sandbox.key, body: { status: "in_review" } })).status).toBe(200);
    expect((await call("POST", `/v1/deals/${ref}/offers`, { key: sandbox.key, body: firmOffer() })).body.currency).toBe("USD");
    expect((await call("POST", `/v1/deals/${ref}/messages`, { key: sandbox.key, body: { body: "Hello" } })).status).toBe(201);
    expect((await call("POST", `/v1/deals/${ref}/status`, { key: sandbox.key, body: { status: "funded", funded_amount: 10 } })).body.lender_status).toBe("funded");
    const created = await call("POST", "/v1/test/deals", { key: sandbox.key });
    expect(created.body.market.country).toBe("UK");
  });

  it("caps live test deals at 10 per account (422 cap_exceeded), counting only undeleted ones", async () => {
    const { sandbox } = await lenderWithKeys();
    const refs: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await call("POST", "/v1/test/deals", { key: sandbox.key });
      expect(res.status).toBe(201);
      refs.push(res.body.ref);
    }
    expectProblem(await call("POST", "/v1/test/deals", { key: sandbox.key }), 422, "cap_exceeded");
    const del = await call("DELETE", `/v1/test/deals/${refs[0].toLowerCase()}`, { key: sandbox.key });
    expect(del.status).toBe(204);
    expectProblem(await call("GET", `/v1/deals/${refs[0]}`, { key: sandbox.key }), 404, "not_found");
    expectProblem(await call("DELETE", `/v1/test/deals/${refs[0]}`, { key: sandbox.key }), 404, "not_found");
    expect((await call("POST", "/v1/test/deals", { key: sandbox.key })).status).toBe(201);
    expectProblem(await call("POST", "/v1/test/deals", { key: sandbox.key }), 422, "cap_exceeded");
  });

  it("refuses a malformed shape and unknown keys", async () => {
    const { sandbox } = await lenderWithKeys();
    expectProblem(await call("POST", "/v1/test/deals", { key: sandbox.key, body: { country: "Germany" } }), 400, "invalid_request");
    expectProblem(await call("POST", "/v1/test/deals", { key: sandbox.key, body: { lender: "x" } }), 400, "invalid_request");
  });
});
