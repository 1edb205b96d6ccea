import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { listLeadsQuery } from "../../src/db/leads/leads";
import { call } from "../helpers/api";
import { panelOf } from "../helpers/panel";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { createLead } from "./helpers";
import { sandboxDeps, testDeps } from "../helpers/deps";
import { planText } from "../helpers/query-plan";

async function all(key: string, query: string) {
  const seen: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: any = await call("GET", `/partner/v1/leads?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
    expect(res.status).toBe(200);
    seen.push(...res.body.leads);
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor);
  return { seen, pages };
}

describe("GET /partner/v1/leads", () => {
  it("pages newest first through a cursor without gaps or repeats", async () => {
    const { sandbox } = await partnerWithKeys();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createLead(sandbox.key, { country: "GB", partner_reference: `p${i}` })).id);
    const { seen, pages } = await all(sandbox.key, "limit=3");
    expect(pages).toBe(3);
    expect(seen.map((l) => l.id)).toEqual([...ids].reverse());
  });

  it("answers summaries with the spec's fields only", async () => {
    const { sandbox } = await partnerWithKeys();
    await createLead(sandbox.key, {
      country: "GB",
      partner_reference: "r1",
      business: { name: "Widgets Ltd", company_number: "0123" },
      contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
      funding: { amount_band: "25k_50k" },
    });
    const res = await call("GET", "/partner/v1/leads", { key: sandbox.key });
    expect(res.body.next_cursor).toBeNull();
    const [summary] = res.body.leads;
    expect(summary).toEqual({
      id: expect.any(String),
      reference: expect.stringMatching(/^RF-/),
      partner_reference: "r1",
      state: "draft",
      environment: "sandbox",
      country: "UK",
      currency: "GBP",
      business: { name: "Widgets Ltd", company_number: "0123" },
      contact: { first_name: "Ada", last_name: "Lovelace" },
      // A band stands for its midpoint, and the basis says so, exactly as the read shows it.
      funding: { amount: 37_500, amount_band: "25k_50k", amount_basis: "band_midpoint" },
      renewal_of: null,
      statements_available: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it("shows each lead's funding figures exactly as its read does, basis included", async () => {
    const { sandbox } = await partnerWithKeys();
    const banded = await createLead(sandbox.key, { country: "GB", funding: { amount_band: "50k_100k" } });
    const topBand = await createLead(sandbox.key, { country: "US", funding: { amount_band: "over_500k" } });
    const reported = await createLead(sandbox.key, { country: "GB", funding: { amount: 40_000, amount_band: "25k_50k" } });
    const unknown = await createLead(sandbox.key, { country: "IE" });
    const res = await call("GET", "/partner/v1/leads", { key: sandbox.key });
    const summaries = new Map(res.body.leads.map((l: any) => [l.id, l]));
    for (const lead of [banded, topBand, reported, unknown]) {
      const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
      const { amount, amount_band, amount_basis } = read.body.funding;
      expect((summaries.get(lead.id) as any).funding).toEqual({ amount, amount_band, amount_basis });
    }
    expect((summaries.get(banded.id) as any).funding).toEqual({ amount: 75_000, amount_band: "50k_100k", amount_basis: "band_midpoint" });
    expect((summaries.get(topBand.id) as any).funding).toEqual({ amount: 500_000, amount_band: "over_500k", amount_basis: "band_lower_bound" });
    expect((summaries.get(reported.id) as any).funding).toEqual({ amount: 40_000, amount_band: "25k_50k", amount_basis: "applicant" });
    expect((summaries.get(unknown.id) as any).funding).toEqual({ amount: null, amount_band: null, amount_basis: null });
  });

  it("filters by state and by market in any accepted spelling", async () => {
    await panelOf(); // the ES lead is out of scope on an empty panel, whatever products other files of this worker left
    const { sandbox } = await partnerWithKeys();
    await createLead(sandbox.key, { country: "GB" });
    await createLead(sandbox.key, { country: "US" });
    const es = await createLead(sandbox.key, { country: "ES", trading: { monthly_revenue_band: "under_10k", time_in_business_band: "under_6m" } });
    await call("POST", `/partner/v1/leads/${es.id}/submit`, { key: sandbox.key });
    for (const market of ["GB", "GBR", "United%20Kingdom", "UK"]) {
      const res = await call("GET", `/partner/v1/leads?market=${market}`, { key: sandbox.key });
      expect(res.body.leads.map((l: any) => l.country)).toEqual(["UK"]);
    }
    const outOfScope = await call("GET", "/partner/v1/leads?state=out_of_scope", { key: sandbox.key });
    expect(outOfScope.body.leads.map((l: any) => l.id)).toEqual([es.id]);
    const drafts = await call("GET", "/partner/v1/leads?state=draft&market=US", { key: sandbox.key });
    expect(drafts.body.leads.map((l: any) => l.country)).toEqual(["US"]);
  });

  it("shows only the caller's account and environment", async () => {
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    await createLead(a.sandbox.key);
    await createLead(a.live.key);
    expect((await call("GET", "/partner/v1/leads", { key: b.sandbox.key })).body.leads).toEqual([]);
    expect((await call("GET", "/partner/v1/leads", { key: a.sandbox.key })).body.leads.map((l: any) => l.environment)).toEqual(["sandbox"]);
    expect((await call("GET", "/partner/v1/leads", { key: a.live.key })).body.leads.map((l: any) => l.environment)).toEqual(["live"]);
  });

  it("refuses a cursor that was tampered with or issued to another account", async () => {
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    for (let i = 0; i < 2; i++) await createLead(a.sandbox.key);
    const cursor = (await call("GET", "/partner/v1/leads?limit=1", { key: a.sandbox.key })).body.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const [body, mac] = cursor.split(".");
    const forged = btoa(JSON.stringify({ c: "9999-12-31T00:00:00.000Z", i: "z" })).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    for (const [key, bad] of [
      [b.sandbox.key, cursor],
      [a.live.key, cursor],
      [a.sandbox.key, `${forged}.${mac}`],
      [a.sandbox.key, `${body}.${mac.slice(0, -2)}AA`],
      [a.sandbox.key, "not-a-cursor"],
    ]) {
      const res = await call("GET", `/partner/v1/leads?cursor=${encodeURIComponent(bad)}`, { key });
      expectProblem(res, 400, "invalid_request");
      expect(res.body.error.field).toBe("query.cursor");
    }
  });

  it("answers 25 leads a page by default and up to 100 when asked", async () => {
    const { openLead } = await import("../../src/services/leads/leads");
    const { marketFor } = await import("../../src/domain/reference/markets");
    const { organisation, sandbox } = await partnerWithKeys();
    const scope = { organisationId: organisation.id, environment: "sandbox" as const };
    for (let i = 0; i < 27; i++) await openLead(sandboxDeps(), { scope, market: marketFor("GB"), parts: {} });
    const first = await call("GET", "/partner/v1/leads", { key: sandbox.key });
    expect(first.body.leads).toHaveLength(25);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const rest = await call("GET", `/partner/v1/leads?cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: sandbox.key });
    expect(rest.body.leads).toHaveLength(2);
    expect(rest.body.next_cursor).toBeNull();
    const all = await call("GET", "/partner/v1/leads?limit=100", { key: sandbox.key });
    expect(all.body.leads).toHaveLength(27);
    expect(all.body.next_cursor).toBeNull();
  });

  it("refuses a cursor longer than any it issues, naming query.cursor", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/leads?cursor=${"a".repeat(1001)}`, { key: sandbox.key });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("query.cursor");
  });

  it.each(["0", "101", "abc", "2.5", "-1"])("refuses limit=%s naming query.limit", async (limit) => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/leads?limit=${limit}`, { key: sandbox.key });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("query.limit");
  });

  it.each([
    ["state=pending", "query.state"],
    ["market=Germany", "query.market"],
    ["market=Narnia", "query.market"],
  ])("refuses %s naming the parameter", async (query, field) => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/leads?${query}`, { key: sandbox.key });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });
});

describe("the list query plan", () => {
  const scope = { organisationId: "org_plan", environment: "sandbox" as const };
  const after = { createdAt: "2026-11-22T00:00:00.000Z", seq: 1_000 };

  async function plan(filters: { state?: "draft"; country?: string }) {
    return planText(listLeadsQuery(database(env.DB), scope, filters, after, 26).toSQL());
  }

  it.each([
    [{}, "leads_scope_created"],
    [{ state: "draft" as const }, "leads_scope_state_created"],
    [{ country: "GB" }, "leads_scope_country_created"],
  ])("seeks %j through its index and sorts nothing", async (filters, index) => {
    const detail = await plan(filters);
    expect(detail).toContain(`USING INDEX ${index}`);
    expect(detail).not.toContain("USE TEMP B-TREE");
    expect(detail).not.toMatch(/SCAN leads(?! USING)/);
  });

  it("sorts nothing when both filters are given", async () => {
    const detail = await plan({ state: "draft", country: "GB" });
    expect(detail).toMatch(/USING INDEX leads_scope_(state|country)_created/);
    expect(detail).not.toContain("USE TEMP B-TREE");
  });
});
