import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { listLeadsQuery, type LeadFilters } from "../../src/db/leads/leads";

// Issue 25 item 3: the lead list's statement is built once per isolate for each combination of filters
// and cursor, and bound per request (db/leads/leads.ts, db/prepared-batch.ts). Its plans are held by
// test/lists/query-plans.test.ts and list.test.ts, which read the same prepared SQL (listLeadsQuery).
describe("the lead list's prepared statements", () => {
  const scope = { organisationId: "org_list_prepared", environment: "live" as const };
  const cursor = { createdAt: "2026-11-26T12:00:00.000Z", seq: 42 };
  const shapes: [LeadFilters, typeof cursor | null][] = [];
  for (const state of [undefined, "draft" as const])
    for (const country of [undefined, "GB"])
      for (const search of [undefined, "Acme_100%"])
        for (const after of [null, cursor]) shapes.push([{ state, country, search }, after]);

  it("are one SQL text per shape (16), the same for any values, which are bound and never SQL text", () => {
    const texts = new Set<string>();
    for (const [filters, after] of shapes) {
      const { sql, params } = listLeadsQuery(database(env.DB), scope, filters, after, 26).toSQL();
      texts.add(sql);
      expect(sql).not.toContain("org_list_prepared");
      expect(sql).not.toContain("Acme");
      expect(params).toEqual(expect.arrayContaining(["org_list_prepared", "live", 26]));
      if (filters.state) expect(params).toContain("draft");
      if (filters.country) expect(params).toContain("GB");
      if (filters.search) expect(params).toEqual(expect.arrayContaining(["ACME_100%", "%acme\\_100\\%%"]));
      if (after) expect(params).toEqual(expect.arrayContaining([cursor.createdAt, cursor.seq]));
      const other = listLeadsQuery(database(env.DB), { organisationId: "org_other", environment: "sandbox" }, filters, after && { createdAt: "2026-01-01T00:00:00.000Z", seq: 7 }, 11).toSQL();
      expect(other.sql).toBe(sql);
      expect(other.params).toEqual(expect.arrayContaining(["org_other", "sandbox", 11]));
    }
    expect(texts.size).toBe(16);
  });
});
