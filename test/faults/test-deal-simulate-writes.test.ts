/**
 * A D1 failure anywhere in a simulated step of a test deal leaves the step's
 * change and its event together or not at all (see sweep.ts). The business
 * behind the deal is made by its own batch on the first simulate; the fixtures
 * make it first, so each sweep covers one hub (or acceptance) write.
 */
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { callWithEnv } from "../helpers/faults";
import { lenderWithKeys } from "../helpers/seed";
import { firmOffer, makeOffer } from "../lender/helpers";
import { sweepD1Faults, type SweepOutcome } from "./sweep";

function expectBatchLeavesNothing(outcomes: SweepOutcome[]) {
  const batches = outcomes.filter((o) => o.operation === "batch");
  expect(batches.length).toBeGreaterThan(0);
  expect(batches.some((o) => o.left === "none")).toBe(true);
}

/** A test deal whose business exists already (a first reply made it). */
async function testDealWithBusiness() {
  const { sandbox } = await lenderWithKeys();
  const deal = await call("POST", "/v1/test/deals", { key: sandbox.key });
  const first = await call("POST", `/v1/test/deals/${deal.body.ref}/simulate`, { key: sandbox.key, body: { event: "message.created" } });
  if (first.status !== 200) throw new Error(`simulate: ${first.status} ${first.text}`);
  return { key: sandbox.key, ref: deal.body.ref as string };
}

const simulate = (env: Cloudflare.Env, f: { key: string; ref: string }, event: string) =>
  callWithEnv(env, "POST", `/v1/test/deals/${f.ref}/simulate`, { key: f.key, body: { event } });

describe("D1 faults in a simulated step of a test deal", () => {
  it("the business's reply (message and message.created): all or nothing", async () => {
    const outcomes = await sweepD1Faults({ setup: testDealWithBusiness, write: (env, f) => simulate(env, f, "message.created"), status: 200, events: ["message.created"] });
    expectBatchLeavesNothing(outcomes);
  });

  it("the business's acceptance of the current offer (offer.accepted with the acceptance): all or nothing", async () => {
    const outcomes = await sweepD1Faults({
      setup: async () => {
        const f = await testDealWithBusiness();
        await makeOffer(f.key, f.ref, firmOffer());
        return f;
      },
      write: (env, f) => simulate(env, f, "offer.accepted"),
      status: 200,
      events: ["offer.accepted", "lead.offer_accepted"],
    });
    expectBatchLeavesNothing(outcomes);
  });
});
