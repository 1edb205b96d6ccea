import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { lenderWithKeys } from "../helpers/seed";
import { eventsFor } from "../routing/helpers";
import { routedLead } from "./helpers";

describe("races are decided by conditional writes", () => {
  // Twelve writers all read the deal as routed before any writes: a read-then-write
  // implementation would let several of them through; the guarded update lets one.
  it("applies exactly one of many concurrent identical status reports, with one deal.updated", async () => {
    const { keys, refA } = await routedLead();
    const answers = await Promise.all(Array.from({ length: 12 }, () => call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "in_review" } })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(11);
    expect((await eventsFor(refA)).filter((e) => e.event === "deal.updated")).toHaveLength(1);
  });

  it("never lets concurrent test-deal creates pass the cap", async () => {
    const { sandbox } = await lenderWithKeys();
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/v1/test/deals", { key: sandbox.key })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 422 && r.body.error.code === "cap_exceeded")).toHaveLength(10);
    expect((await call("GET", "/v1/deals?limit=100", { key: sandbox.key })).body.deals).toHaveLength(10);
  });
});
