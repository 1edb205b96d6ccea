import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { firmOffer, makeOffer, pdfBytes, routedLead } from "./helpers";

describe("lender API scoping", () => {
  it.each([
    ["another routed lender", "b"],
    ["an unrouted lender", "c"],
    ["a lender outside the panel", "stranger"],
    ["the same lender in the other environment", "sandbox"],
  ] as const)("answers 404 on every deal route to %s", async (_, who) => {
    const { keys, refA } = await routedLead();
    const key = who === "b" ? keys.b.live : who === "c" ? keys.c.live : who === "sandbox" ? keys.a.sandbox : (await lenderWithKeys()).live.key;
    expectProblem(await call("GET", `/v1/deals/${refA}`, { key }), 404, "not_found");
    expectProblem(await call("GET", `/v1/deals/${refA}/offers`, { key }), 404, "not_found");
    expectProblem(await call("POST", `/v1/deals/${refA}/offers`, { key, body: firmOffer() }), 404, "not_found");
    expectProblem(await call("POST", `/v1/deals/${refA}/status`, { key, body: { status: "in_review" } }), 404, "not_found");
    expectProblem(await call("GET", `/v1/deals/${refA}/messages`, { key }), 404, "not_found");
    expectProblem(await call("POST", `/v1/deals/${refA}/messages`, { key, body: { body: "hi" } }), 404, "not_found");
    expectProblem(await call("GET", `/v1/deals/${refA}/completion`, { key }), 404, "not_found");
    expectProblem(await call("PUT", `/v1/deals/${refA}/agreement`, { key, rawBody: pdfBytes(), contentType: "application/pdf" }), 404, "not_found");
    expectProblem(await call("DELETE", `/v1/test/deals/${refA}`, { key }), 404, "not_found");
    expect((await call("GET", "/v1/deals", { key })).body.deals.map((d: any) => d.ref)).not.toContain(refA);
  });

  it("lists nothing to an unrouted lender and never deletes a real deal through the test-deal route", async () => {
    const { keys, refA } = await routedLead();
    expect((await call("GET", "/v1/deals", { key: keys.c.live })).body.deals).toEqual([]);
    // A real deal is never deletable through the test-deal route, even by its own lender.
    expectProblem(await call("DELETE", `/v1/test/deals/${refA}`, { key: keys.a.live }), 404, "not_found");
    expect((await call("GET", `/v1/deals/${refA}`, { key: keys.a.live })).status).toBe(200);
    expectProblem(await call("GET", "/v1/deals/DL-UNKNOWN1", { key: keys.a.live }), 404, "not_found");
  });

  it("keeps a partner's offers to its own account and environment", async () => {
    const { partner, lead, keys, refA } = await routedLead();
    expectProblem(await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: partner.sandbox.key }), 404, "not_found");
    const offer = await makeOffer(keys.a.live, refA, firmOffer());
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/offers/${offer.id}/acceptance`, { key: partner.sandbox.key }), 404, "not_found");
    expect((await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: partner.live.key })).status).toBe(200);
  });
});
