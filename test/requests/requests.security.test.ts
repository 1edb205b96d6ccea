import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { routedLead } from "../lender/helpers";
import { fulfil, requestOn, requestRow, testDeal } from "./helpers";

const routes = (ref: string, id: string) =>
  [
    ["POST", `/v1/deals/${ref}/requests`, { item_type: "invoice" }],
    ["GET", `/v1/deals/${ref}/requests`, undefined],
    ["GET", `/v1/deals/${ref}/requests/${id}/files`, undefined],
    ["POST", `/v1/deals/${ref}/requests/${id}/waive`, undefined],
    ["GET", `/v1/deals/${ref}/documents`, undefined],
  ] as const;

describe("document requests are the lender's own, in its environment", () => {
  it("hides another lender's deal and requests, and the other environment, as 404 not_found", async () => {
    const { keys, refA, refB } = await routedLead();
    const request = await requestOn(keys.a.live, refA);
    await fulfil(refA, request.id);
    for (const [method, path, body] of routes(refA, request.id)) {
      expectProblem(await call(method, path, { key: keys.b.live, body }), 404, "not_found");
      expectProblem(await call(method, path, { key: keys.a.sandbox, body }), 404, "not_found");
    }
    // Lender B's own deal on the same lead does not reach A's request either.
    expectProblem(await call("GET", `/v1/deals/${refB}/requests/${request.id}/files`, { key: keys.b.live }), 404, "not_found");
    expectProblem(await call("POST", `/v1/deals/${refB}/requests/${request.id}/waive`, { key: keys.b.live }), 404, "not_found");
    expect((await requestRow(request.id)).status).toBe("uploaded");
    // B sees neither the request nor the client's upload against A's request.
    expect((await call("GET", `/v1/deals/${refB}/requests`, { key: keys.b.live })).body).toEqual({ requests: [], count: 0, open_count: 0 });
    const docsB = await call("GET", `/v1/deals/${refB}/documents`, { key: keys.b.live });
    expect(docsB.body).toEqual({ documents: [], outstanding_requests: [], has_statements: false, count: 0 });
    expect((await call("GET", `/v1/deals/${refA}/documents`, { key: keys.a.live })).body.count).toBe(1);
  });

  it("does not reach a request through another of the lender's own deals", async () => {
    const { sandbox } = await lenderWithKeys();
    const first = await testDeal(sandbox.key);
    const second = await testDeal(sandbox.key);
    const request = await requestOn(sandbox.key, first);
    expectProblem(await call("GET", `/v1/deals/${second}/requests/${request.id}/files`, { key: sandbox.key }), 404, "not_found");
    expectProblem(await call("POST", `/v1/deals/${second}/requests/${request.id}/waive`, { key: sandbox.key }), 404, "not_found");
    expect((await requestRow(request.id)).status).toBe("requested");
  });
});
