import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readWithRelations } from "../../src/db/leads/with-relations";
import { planLines } from "../helpers/query-plan";


// The lead read carries the lead's renewals on every GET (db/leads/with-relations.ts). Without ANALYZE
// statistics SQLite preferred the (organisation, environment) index and walked the whole account's
// leads; `npm run bench` found the read at a tenth of its neighbours' throughput with 40,000 leads held.
// Issue 25 item 3: the read is ONE statement, built once per isolate: the lead by its primary key with
// its routing row and hub link joined, and its documents, current offers, renewals and register answers
// as JSON aggregates of correlated subqueries. Every part of it is an index seek.
describe("the lead read's statement", () => {
  it("is one statement: the lead by its primary key, its routing row and hub link joined, each list a seek of its own index", async () => {
    const statements = readWithRelations.statements({ organisationId: "org_plan", environment: "live", id: "lead-1" });
    expect(statements).toHaveLength(1);
    const [{ sql, params }] = statements as [{ sql: string; params: unknown[] }];
    const lines = await planLines({ sql, params });
    for (const line of lines) expect(line).not.toMatch(/^SCAN (?!CONSTANT ROW)/);
    const detail = lines.join("\n");
    expect(detail).toContain("SEARCH leads USING INDEX sqlite_autoindex_leads_1 (id=?)");
    expect(detail).toMatch(/SEARCH lead_routing USING INDEX sqlite_autoindex_lead_routing_1 \(lead_id=\?\)/);
    expect(detail).toMatch(/SEARCH hub_links USING INDEX sqlite_autoindex_hub_links_1 \(lead_id=\?\)/);
    expect(detail).toMatch(/SEARCH documents USING INDEX documents_lead \(lead_id=\?\)/);
    expect(detail).toMatch(/SEARCH offers USING INDEX offers_lead \(lead_id=\?\)/);
    // Issue 41: the routed options the partner's anonymised outcomes are read from.
    expect(detail).toMatch(/SEARCH deals USING INDEX deals_lead \(lead_id=\?\)/);
    // The renewals seek renewal_of, never the account's (organisation, environment) range.
    expect(detail).toMatch(/SEARCH renewal USING INDEX leads_renewal_of \(renewal_of=\?\)/);
    expect(detail).not.toContain("leads_scope_created");
    expect(detail).toMatch(/SEARCH register_answers USING INDEX sqlite_autoindex_register_answers_1 \(owner_id=\?\)/);
    // The lead's attribution (its one active claim) seeks company_claims by lead.
    expect(detail).toMatch(/SEARCH company_claims USING INDEX company_claims_lead \(lead_id=\?\)/);
    expect(lines.filter((line) => line.startsWith("CORRELATED SCALAR SUBQUERY"))).toHaveLength(6);
    // A D1 batch answers rows as objects keyed by column name: a name twice would lose one of the values.
    const [columns] = await env.DB.prepare(sql).bind(...params).raw({ columnNames: true });
    expect(new Set(columns).size).toBe(columns!.length);
    // Bound per request: the scope and id are parameters, never SQL text.
    expect(sql).not.toContain("org_plan");
    expect(sql).not.toContain("lead-1");
    expect(params).toEqual(expect.arrayContaining(["org_plan", "live", "lead-1"]));
  });
});
