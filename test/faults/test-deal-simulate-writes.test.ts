/**
 * A D1 failure anywhere in a simulated step of a test deal leaves the step's
 * change and its event together or not at all (see sweep.ts). The business
 * behind the deal is made by the first simulate, in the batch of that first
 * action: the first sweeps make it beforehand, so each covers one hub (or
 * acceptance) write; the last ones start from a deal without a business, so
 * the business (its lead, routing record, the deal's lead id) is part of the
 * all-or-nothing too.
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

/** A test deal whose business does not exist yet (no simulate has run). */
async function testDealWithoutBusiness() {
  const { sandbox } = await lenderWithKeys();
  const deal = await call("POST", "/v1/test/deals", { key: sandbox.key });
  if (deal.status !== 201) throw new Error(`test deal: ${deal.status} ${deal.text}`);
  return { key: sandbox.key, ref: deal.body.ref as string };
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
  // Issue 21 item 2: the first simulate made the business in a batch of its own, so a fault after it left the
  // business without the action; the first simulate (no business yet) is swept as well as a later one.
  const setups = [
    ["a later simulate", testDealWithBusiness],
    ["the first simulate (its business written in the same batch)", testDealWithoutBusiness],
  ] as const;

  it.each(setups)("%s, the business's reply (message and message.created): all or nothing", async (_when, setup) => {
    const outcomes = await sweepD1Faults({ setup, write: (env, f) => simulate(env, f, "message.created"), status: 200, events: ["message.created"] });
    expectBatchLeavesNothing(outcomes);
  });

  it.each(setups)("%s, the business's acceptance of the current offer (offer.accepted with the acceptance): all or nothing", async (_when, setup) => {
    const outcomes = await sweepD1Faults({
      setup: async () => {
        const f = await setup();
        await makeOffer(f.key, f.ref, firmOffer());
        return f;
      },
      write: (env, f) => simulate(env, f, "offer.accepted"),
      status: 200,
      events: ["offer.accepted", "lead.offer_accepted"],
    });
    expectBatchLeavesNothing(outcomes);
  });

  it("the first simulate, an upload: the business, the document, the request's move and request.fulfilled are all or nothing", async () => {
    const outcomes = await sweepD1Faults({
      setup: async () => {
        const f = await testDealWithoutBusiness();
        const requested = await call("POST", `/v1/deals/${f.ref}/requests`, { key: f.key, body: { item_type: "bank_statements_6m" } });
        if (requested.status !== 200) throw new Error(`request: ${requested.status} ${requested.text}`);
        return f;
      },
      write: (env, f) => simulate(env, f, "request.fulfilled"),
      status: 200,
      events: ["request.fulfilled"],
      // The stored file's marker is written before its bytes, on purpose (swept by the cron).
      leftovers: { pending_uploads: 1 },
    });
    expectBatchLeavesNothing(outcomes);
  });
});
