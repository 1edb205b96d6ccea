import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { lenderWithKeys } from "../helpers/seed";

// A test deal's sandbox business is written in the batch that creates the deal (issue 21 item 2: a
// simulate then writes one batch, its action). A test deal created before that still gets its
// business on its first simulate.

const businessOf = (ref: string) =>
  env.DB.prepare("select l.id as id, d.lead_id as deal_lead_id from leads l join deals d on d.ref = l.test_deal_ref where l.test_deal_ref = ?").bind(ref).all<{ id: string; deal_lead_id: string }>();

async function createTestDeal(key: string) {
  const res = await call("POST", "/v1/test/deals", { key });
  expect(res.status).toBe(201);
  return res.body.ref as string;
}

describe("the sandbox business behind a test deal", () => {
  it("is written with the test deal, before any simulate", async () => {
    const lender = await lenderWithKeys();
    const ref = await createTestDeal(lender.sandbox.key);
    const { results } = await businessOf(ref);
    expect(results).toHaveLength(1);
    expect(results[0].deal_lead_id).toBe(results[0].id);
    const routing = await env.DB.prepare("select count(*) as n from lead_routing where lead_id = ?").bind(results[0].id).first<{ n: number }>();
    expect(routing?.n).toBe(1);
    // The simulate acts for that business; it makes no other.
    const res = await call("POST", `/v1/test/deals/${ref}/simulate`, { key: lender.sandbox.key, body: { event: "message.created" } });
    expect(res.status).toBe(200);
    expect((await businessOf(ref)).results.map((r) => r.id)).toEqual([results[0].id]);
  });

  it("is made on the first simulate of a test deal created without one (before it was written with the deal)", async () => {
    const lender = await lenderWithKeys();
    const ref = await createTestDeal(lender.sandbox.key);
    const [made] = (await businessOf(ref)).results;
    // The state a test deal created before the change is in: no lead behind it.
    await env.DB.batch([
      env.DB.prepare("update deals set lead_id = null where ref = ?").bind(ref),
      env.DB.prepare("delete from lead_routing where lead_id = ?").bind(made.id),
      env.DB.prepare("delete from leads where id = ?").bind(made.id),
    ]);
    expect((await businessOf(ref)).results).toEqual([]);
    const first = await call("POST", `/v1/test/deals/${ref}/simulate`, { key: lender.sandbox.key, body: { event: "message.created" } });
    expect(first.status).toBe(200);
    const { results } = await businessOf(ref);
    expect(results).toHaveLength(1);
    expect(results[0].id).not.toBe(made.id);
    expect(results[0].deal_lead_id).toBe(results[0].id);
    const again = await call("POST", `/v1/test/deals/${ref}/simulate`, { key: lender.sandbox.key, body: { event: "message.created" } });
    expect(again.status).toBe(200);
    expect((await businessOf(ref)).results.map((r) => r.id)).toEqual([results[0].id]);
  });
});
