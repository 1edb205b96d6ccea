import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { forwardRequest } from "../../src/services/documents/requests";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { routedLead } from "../lender/helpers";
import { ask, fulfil, requestOn, requestRow, testDeal } from "./helpers";
import { testDeps } from "../helpers/deps";
import { countInData } from "../helpers/data-db";

// A test deal's requests are in the sandbox's database, a live deal's in DB: counted in both.
const openOf = (ref: string) => countInData("select count(*) as n from document_requests where deal_ref = ? and status in ('requested', 'uploaded')", ref);

describe("the open-request limit and races", () => {
  it("lets exactly 20 of 25 parallel creates through; the rest are 422 too_many_open_requests", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const results = await Promise.all(Array.from({ length: 25 }, () => ask(sandbox.key, ref, { item_type: "other" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expectProblem(r, 422, "too_many_open_requests");
      expect(r.body.limit).toBe(20);
    }
    expect(await openOf(ref)).toBe(20);
    expect((await call("GET", `/v1/deals/${ref}/requests`, { key: sandbox.key })).body).toMatchObject({ count: 20, open_count: 20 });
  });

  it("counts only open requests: waived and forwarded ones make room", async () => {
    const { keys, refA } = await routedLead();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await requestOn(keys.a.live, refA, "other")).id);
    expectProblem(await ask(keys.a.live, refA, { item_type: "other" }), 422, "too_many_open_requests");

    expect((await call("POST", `/v1/deals/${refA}/requests/${ids[0]}/waive`, { key: keys.a.live })).status).toBe(200);
    expect((await ask(keys.a.live, refA, { item_type: "other" })).status).toBe(200);
    expectProblem(await ask(keys.a.live, refA, { item_type: "other" }), 422, "too_many_open_requests");

    // Uploaded still counts; forwarded does not.
    await fulfil(refA, ids[1]);
    expectProblem(await ask(keys.a.live, refA, { item_type: "other" }), 422, "too_many_open_requests");
    expect((await call("GET", `/v1/deals/${refA}/requests/${ids[1]}/files`, { key: keys.a.live })).body.status).toBe("forwarded");
    expect((await ask(keys.a.live, refA, { item_type: "other" })).status).toBe(200);
    expect(await openOf(refA)).toBe(20);
  });

  it("forwards once when many forwards race (the update both the files read and the delivery hook make)", async () => {
    const { keys, refA, a } = await routedLead();
    const request = await requestOn(keys.a.live, refA);
    await fulfil(refA, request.id);
    const deps = testDeps();
    const scope = { organisationId: a.id, environment: "live" as const };
    const moved = await Promise.all(Array.from({ length: 6 }, () => forwardRequest(deps, scope, request.id)));
    expect(moved.filter(Boolean)).toHaveLength(1);
    const forwardedAt = (await requestRow(request.id)).forwarded_at;
    const reads = await Promise.all(Array.from({ length: 4 }, () => call("GET", `/v1/deals/${refA}/requests/${request.id}/files`, { key: keys.a.live })));
    expect(reads.map((r) => r.body.status)).toEqual(["forwarded", "forwarded", "forwarded", "forwarded"]);
    expect((await requestRow(request.id)).forwarded_at).toBe(forwardedAt);
  });

  it("concurrent first reads of an uploaded request all see it forwarded, with one forwarded_at", async () => {
    const { keys, refA } = await routedLead();
    const request = await requestOn(keys.a.live, refA);
    await fulfil(refA, request.id);
    const reads = await Promise.all(Array.from({ length: 4 }, () => call("GET", `/v1/deals/${refA}/requests/${request.id}/files`, { key: keys.a.live })));
    expect(reads.map((r) => [r.status, r.body.status, r.body.files.length])).toEqual(Array.from({ length: 4 }, () => [200, "forwarded", 1]));
    const list = (await call("GET", `/v1/deals/${refA}/requests`, { key: keys.a.live })).body;
    expect(list.requests[0].forwarded_at).toBe((await requestRow(request.id)).forwarded_at);
  });

  it("refuses requests on a declined or funded deal with 409 invalid_transition", async () => {
    const { sandbox } = await lenderWithKeys();
    const declined = await testDeal(sandbox.key);
    expect((await call("POST", `/v1/deals/${declined}/status`, { key: sandbox.key, body: { status: "declined" } })).status).toBe(200);
    expectProblem(await ask(sandbox.key, declined, { item_type: "invoice" }), 409, "invalid_transition");

    const funded = await testDeal(sandbox.key);
    const offer = await call("POST", `/v1/deals/${funded}/offers`, { key: sandbox.key, body: { maturity: "firm", amount: 10_000, kind: "business_loan", annual_rate_pct: 10, term_months: 12 } });
    expect(offer.status).toBe(201);
    expect((await call("POST", `/v1/deals/${funded}/status`, { key: sandbox.key, body: { status: "funded", funded_amount: 10_000 } })).status).toBe(200);
    expectProblem(await ask(sandbox.key, funded, { item_type: "invoice" }), 409, "invalid_transition");
    expect((await call("GET", `/v1/deals/${funded}/requests`, { key: sandbox.key })).body).toEqual({ requests: [], count: 0, open_count: 0 });
  });
});
