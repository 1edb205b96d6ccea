import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { ask, requestOn, testDeal } from "./helpers";

describe("document request input", () => {
  it("refuses a missing, unknown or mistyped item_type naming the field", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    for (const body of [{}, { item_type: "tax_returns" }, { item_type: 7 }, { note: "only a note" }]) {
      const res = await ask(sandbox.key, ref, body);
      expectProblem(res, 400, "invalid_request");
      expect(res.body.error.field).toBe("item_type");
    }
  });

  it("refuses unknown keys, a note over 500 characters, an empty note and a missing body", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    expectProblem(await ask(sandbox.key, ref, { item_type: "invoice", status: "forwarded" }), 400, "invalid_request");
    expectProblem(await ask(sandbox.key, ref, { item_type: "invoice", label: "Anything I like" }), 400, "invalid_request");
    const long = await ask(sandbox.key, ref, { item_type: "invoice", note: "x".repeat(501) });
    expectProblem(long, 400, "invalid_request");
    expect(long.body.error.field).toBe("note");
    expectProblem(await ask(sandbox.key, ref, { item_type: "invoice", note: "   " }), 400, "invalid_request");
    expectProblem(await call("POST", `/v1/deals/${ref}/requests`, { key: sandbox.key }), 400, "invalid_request");
    expect((await ask(sandbox.key, ref, { item_type: "invoice", note: "x".repeat(500) })).status).toBe(200);
  });

  it("answers 404 for an unknown deal or request and 409 for a second waive", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const request = await requestOn(sandbox.key, ref);
    expectProblem(await ask(sandbox.key, "DL-NOPE0000", { item_type: "invoice" }), 404, "not_found");
    expectProblem(await call("GET", "/v1/deals/DL-NOPE0000/requests", { key: sandbox.key }), 404, "not_found");
    expectProblem(await call("GET", "/v1/deals/DL-NOPE0000/documents", { key: sandbox.key }), 404, "not_found");
    expectProblem(await call("GET", `/v1/deals/${ref}/requests/dreq_unknown/files`, { key: sandbox.key }), 404, "not_found");
    expectProblem(await call("POST", `/v1/deals/${ref}/requests/dreq_unknown/waive`, { key: sandbox.key }), 404, "not_found");
    expect((await call("POST", `/v1/deals/${ref}/requests/${request.id}/waive`, { key: sandbox.key })).status).toBe(200);
    expectProblem(await call("POST", `/v1/deals/${ref}/requests/${request.id}/waive`, { key: sandbox.key }), 409, "invalid_transition");
  });
});
