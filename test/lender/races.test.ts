import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { lenderWithKeys } from "../helpers/seed";
import { eventsFor } from "../routing/helpers";
import { routedLead } from "./helpers";

describe("races are decided by conditional writes", () => {
  it("applies one of two concurrent identical status reports, with one deal.updated", async () => {
    const { keys, refA } = await routedLead();
    const answers = await Promise.all([0, 1, 2].map(() => call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "in_review" } })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await eventsFor(refA)).filter((e) => e.event === "deal.updated")).toHaveLength(1);
  });

  it("never lets concurrent test-deal creates pass the cap", async () => {
    const { sandbox } = await lenderWithKeys();
    const answers = await Promise.all(Array.from({ length: 13 }, () => call("POST", "/v1/test/deals", { key: sandbox.key })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 422 && r.body.error.code === "cap_exceeded")).toHaveLength(3);
    expect((await call("GET", "/v1/deals?limit=100", { key: sandbox.key })).body.deals).toHaveLength(10);
  });
});
