import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { loadDemoPanel, panelOf } from "../helpers/panel";
import { partnerWithKeys } from "../helpers/seed";

// The API's `unlocks` checked against the API itself on the demo panel: moving the named field to
// the named value adds exactly that many options, and the value one step short of it adds none.
let key: string;
const prequalify = async (body: unknown) => (await call("POST", "/partner/v1/prequalification", { key, body })).body;

const young = {
  country: "GB",
  business: { industry: "retail" },
  funding: { purpose: "working_capital", amount: 30_000 },
  trading: { monthly_revenue: 8_000, tib_months: 4 },
};

const withValue = (body: typeof young, field: string, value: number | string) => {
  const next = structuredClone(body) as any;
  const [group, name] = field.split(".");
  next[group][name] = value;
  return next;
};

describe("unlocks in the prequalification answer", () => {
  beforeAll(async () => {
    // The demo panel alone, not with the products other files of this worker put.
    await panelOf(...Object.values(await loadDemoPanel()));
    key = (await partnerWithKeys()).sandbox.key;
  });

  it("says what would add options, and each claim holds when the business asks again with it", async () => {
    const answer = await prequalify(young);
    expect(answer.unlocks.length).toBeGreaterThan(0);
    for (const unlock of answer.unlocks) {
      const again = await prequalify(withValue(young, unlock.field, unlock.needed));
      expect(again.matched_options - answer.matched_options, unlock.field).toBe(unlock.options_added);
      if (typeof unlock.needed === "number" && unlock.field !== "funding.amount") {
        const short = await prequalify(withValue(young, unlock.field, unlock.needed - 1));
        expect(short.matched_options, `${unlock.field} one short`).toBe(answer.matched_options);
      }
    }
  });

  it("is empty for a refused country and lists no provider", async () => {
    const refused = await prequalify({ ...young, country: "DE" });
    expect(refused.unlocks).toEqual([]);
    const answer = await prequalify(young);
    expect(JSON.stringify(answer.unlocks)).not.toMatch(/Demo Lender|org_|gb-/);
  });
});
