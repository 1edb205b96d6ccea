import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { renewalsQuery } from "../../src/db/leads/leads";

// The lead read batches its renewals query on every GET (db/leads/with-relations.ts). Without ANALYZE
// statistics SQLite preferred the (organisation, environment) index and walked the whole account's
// leads; `npm run bench` found the read at a tenth of its neighbours' throughput with 40,000 leads held.
describe("the lead read's renewals query", () => {
  it("seeks the renewal_of index, not the account's range", async () => {
    const { sql, params } = renewalsQuery(database(env.DB), { organisationId: "org_plan", environment: "live" }, "lead-1").toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
    const detail = results.map((r) => r.detail).join("\n");
    expect(detail).toContain("USING INDEX leads_renewal_of");
    expect(detail).not.toContain("leads_scope_created");
  });
});
