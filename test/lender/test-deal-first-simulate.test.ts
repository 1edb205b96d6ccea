/**
 * The first simulate of a test deal makes the deal's sandbox business in the batch of its first
 * action (issue 21 item 2; docs/operations.md, Security): a refused first action leaves the deal
 * without a business; a racing first simulate that gave the deal its business first, or a deal
 * deleted meanwhile, makes this request's whole batch abort (business and action), and the request
 * acts again from a fresh read. The races are made deterministic by letting the competing request
 * run to its end just before this request's first batch that writes the business (the real D1
 * binding, held up; nothing of ours is mocked).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { callWithEnv } from "../helpers/faults";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { inData } from "../helpers/data-db";

async function testDeal() {
  const { organisation, sandbox } = await lenderWithKeys();
  const res = await call("POST", "/v1/test/deals", { key: sandbox.key });
  expect(res.status).toBe(201);
  return { organisationId: organisation.id, key: sandbox.key, ref: res.body.ref as string };
}

/** The deal's business as stored: the deal's lead id and every lead standing behind the deal. */
async function businessOf(ref: string) {
  const deal = await inData.prepare("select lead_id from deals where ref = ?").bind(ref).first<{ lead_id: string | null }>();
  const { results } = await inData.prepare("select id from leads where test_deal_ref = ?").bind(ref).all<{ id: string }>();
  const routing = await env.DB_SANDBOX.prepare("select count(*) as n from lead_routing where lead_id in (select id from leads where test_deal_ref = ?)").bind(ref).first<{ n: number }>();
  return { dealLeadId: deal?.lead_id ?? null, leads: results.map((r) => r.id), routing: routing!.n };
}

const repliesOf = async (ref: string) =>
  (await env.DB_SANDBOX.prepare("select count(*) as n from deal_messages where deal_ref = ? and direction = 'borrower_to_lender'").bind(ref).first<{ n: number }>())!.n;

const eventsOf = async (organisationId: string, ref: string) =>
  (
    await inData.prepare("select event from events where organisation_id = ? and subject_id = ? order by created_at, rowid").bind(organisationId, ref).all<{ event: string }>()
  ).results.map((r) => r.event);

/**
 * The real environment whose sandbox D1 binding (a test deal is the sandbox's), at the first batch that writes `lead_routing` (the
 * business's own rows), first waits for `race` to finish.
 */
function racedEnv(race: () => Promise<unknown>) {
  const real = env.DB_SANDBOX;
  const sqlOf = new WeakMap<object, string>();
  const tagged = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
    sqlOf.set(statement, query);
    const bind = statement.bind.bind(statement);
    return Object.assign(statement, { bind: (...values: unknown[]) => tagged(bind(...values), query) });
  };
  let raced = false;
  const DB = {
    prepare: (query: string) => tagged(real.prepare(query), query),
    batch: async (statements: D1PreparedStatement[]) => {
      if (!raced && statements.some((s) => /insert into "lead_routing"/i.test(sqlOf.get(s) ?? ""))) {
        raced = true;
        await race();
      }
      return real.batch(statements);
    },
    exec: (query: string) => real.exec(query),
    withSession: () => ({ ...DB, getBookmark: () => null }),
    dump: () => real.dump(),
  } as unknown as D1Database;
  return { env: { ...env, DB_SANDBOX: DB } as Cloudflare.Env, raced: () => raced };
}

describe("the first simulate of a test deal writes its business with its first action", () => {
  it("a refused first action leaves the deal without a business", async () => {
    const { key, ref } = await testDeal();
    // No offer to accept: refused, nothing written.
    const refused = await call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event: "offer.accepted" } });
    expectProblem(refused, 409, "offer_not_acceptable");
    expect(await businessOf(ref)).toEqual({ dealLeadId: null, leads: [], routing: 0 });
    // The next simulate makes it, once.
    expect((await call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event: "message.created" } })).status).toBe(200);
    const made = await businessOf(ref);
    expect(made.leads).toEqual([made.dealLeadId]);
    expect(made.routing).toBe(1);
  });

  it("a racing first simulate gives the deal its business first: this one's batch writes nothing, then it acts as that business", async () => {
    const { organisationId, key, ref } = await testDeal();
    const raced = racedEnv(async () => {
      expect((await call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event: "message.created" } })).status).toBe(200);
    });
    const res = await callWithEnv(raced.env, "POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event: "message.created" } });
    expect(raced.raced()).toBe(true);
    expect(res.status, res.text).toBe(200);
    // One business (the winner's), two replies and their two events: the loser's first batch left nothing.
    const business = await businessOf(ref);
    expect(business.leads).toEqual([business.dealLeadId]);
    expect(business.routing).toBe(1);
    expect(await repliesOf(ref)).toBe(2);
    expect((await eventsOf(organisationId, ref)).filter((e) => e === "message.created")).toHaveLength(2);
  });

  it("racing first uploads: the loser's batch (business and upload) aborts, and it answers the next open request as the winner's business", async () => {
    const { organisationId, key, ref } = await testDeal();
    const requested: string[] = [];
    for (const item_type of ["bank_statements_6m", "id_document"]) {
      const res = await call("POST", `/v1/deals/${ref}/requests`, { key, body: { item_type } });
      expect(res.status, res.text).toBe(200);
      requested.push(res.body.request.id);
    }
    const raced = racedEnv(async () => {
      expect((await call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event: "request.fulfilled" } })).status).toBe(200);
    });
    // Both first simulates picked the oldest request; the loser, read again, answers the other one.
    const res = await callWithEnv(raced.env, "POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event: "request.fulfilled" } });
    expect(raced.raced()).toBe(true);
    expect(res.status, res.text).toBe(200);
    const business = await businessOf(ref);
    expect(business.leads).toEqual([business.dealLeadId]);
    const { results: requests } = await inData.prepare("select id, status, lead_id from document_requests where deal_ref = ?").bind(ref).all<{ id: string; status: string; lead_id: string }>();
    expect(requests.map((r) => r.id).sort()).toEqual([...requested].sort());
    expect(requests.every((r) => r.status === "uploaded" && r.lead_id === business.dealLeadId), JSON.stringify(requests)).toBe(true);
    const { results: documents } = await inData.prepare("select lead_id, request_id from documents where deal_ref = ?").bind(ref).all<{ lead_id: string; request_id: string }>();
    expect(documents.map((d) => d.request_id).sort()).toEqual([...requested].sort());
    expect(documents.every((d) => d.lead_id === business.dealLeadId)).toBe(true);
    expect((await eventsOf(organisationId, ref)).filter((e) => e === "request.fulfilled")).toHaveLength(2);
  });

  it("a deal deleted before the first batch: 404, and no business, message or event is left", async () => {
    const { organisationId, key, ref } = await testDeal();
    const raced = racedEnv(async () => {
      expect((await call("DELETE", `/v1/test/deals/${ref}`, { key })).status).toBe(204);
    });
    const res = await callWithEnv(raced.env, "POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event: "message.created" } });
    expect(raced.raced()).toBe(true);
    expectProblem(res, 404, "not_found");
    expect(await businessOf(ref)).toEqual({ dealLeadId: null, leads: [], routing: 0 });
    expect(await repliesOf(ref)).toBe(0);
    expect(await eventsOf(organisationId, ref)).not.toContain("message.created");
  });
});
