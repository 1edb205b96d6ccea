import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { renewalsQuery } from "../../src/db/leads/leads";
import { readWithRelations } from "../../src/db/leads/with-relations";

const plan = async (sql: string, params: unknown[]) =>
  (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>()).results.map((r) => r.detail);

// The lead read batches its renewals query on every GET (db/leads/with-relations.ts). Without ANALYZE
// statistics SQLite preferred the (organisation, environment) index and walked the whole account's
// leads; `npm run bench` found the read at a tenth of its neighbours' throughput with 40,000 leads held.
describe("the lead read's renewals query", () => {
  it("seeks the renewal_of index, not the account's range", async () => {
    const { sql, params } = renewalsQuery(database(env.DB), { organisationId: "org_plan", environment: "live" }, "lead-1").toSQL();
    const detail = (await plan(sql, params)).join("\n");
    expect(detail).toContain("USING INDEX leads_renewal_of");
    expect(detail).not.toContain("leads_scope_created");
  });
});

// Issue 25 item 3: the read is one batch of five statements, built once per isolate; the lead's routing row
// and hub link come joined to the lead by their primary keys. Every statement is an index seek.
describe("the lead read's batch", () => {
  it("is five statements, each seeking an index, the lead by its primary key with its routing row and hub link joined", async () => {
    const statements = readWithRelations.statements({ organisationId: "org_plan", environment: "live", id: "lead-1" });
    expect(statements).toHaveLength(5);
    const plans = await Promise.all(statements.map(({ sql, params }) => plan(sql, params)));
    for (const lines of plans) {
      for (const line of lines) expect(line).not.toMatch(/^SCAN (?!CONSTANT ROW)/);
    }
    const lead = plans[0]!.join("\n");
    expect(lead).toContain("SEARCH leads USING INDEX sqlite_autoindex_leads_1 (id=?)");
    expect(lead).toMatch(/SEARCH lead_routing USING INDEX sqlite_autoindex_lead_routing_1 \(lead_id=\?\)/);
    expect(lead).toMatch(/SEARCH hub_links USING INDEX sqlite_autoindex_hub_links_1 \(lead_id=\?\)/);
    // A D1 batch answers rows as objects keyed by column name: a name twice would lose one of the values.
    for (const { sql, params } of statements) {
      const [columns] = await env.DB.prepare(sql).bind(...params).raw({ columnNames: true });
      expect(new Set(columns).size).toBe(columns!.length);
    }
    // Bound per request: the scope and id are parameters, never SQL text.
    expect(statements.every(({ sql }) => !sql.includes("org_plan") && !sql.includes("lead-1"))).toBe(true);
    expect(statements[0]!.params).toEqual(expect.arrayContaining(["org_plan", "live", "lead-1"]));
  });
});
