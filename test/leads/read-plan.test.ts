import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readWithRelations } from "../../src/db/leads/with-relations";
import { planLines } from "../helpers/query-plan";


// The lead read carries the lead's renewals on every GET (db/leads/with-relations.ts). Without ANALYZE
// statistics SQLite preferred the (organisation, environment) index and walked the whole account's
// leads; `npm run bench` found the read at a tenth of its neighbours' throughput with 40,000 leads held.
// The read is one batch of six statements built once per isolate: the lead by its primary key with its
// routing row and hub link joined, then each list by its own index. Every part of it is an index seek.
describe("the lead read's statements", () => {
  const statements = readWithRelations.statements({ organisationId: "org_plan", environment: "live", id: "lead-1" }) as { sql: string; params: unknown[] }[];

  it("are six, each a seek: the lead by its primary key with routing and hub link joined, each list by its own index", async () => {
    expect(statements).toHaveLength(6);
    const plans = await Promise.all(statements.map(planLines));
    for (const line of plans.flat()) expect(line).not.toMatch(/^SCAN (?!CONSTANT ROW)/);
    const [lead, documents, offers, deals, renewals, answers] = plans.map((lines) => lines.join("\n"));
    expect(lead).toContain("SEARCH leads USING INDEX sqlite_autoindex_leads_1 (id=?)");
    expect(lead).toMatch(/SEARCH lead_routing USING INDEX sqlite_autoindex_lead_routing_1 \(lead_id=\?\)/);
    expect(lead).toMatch(/SEARCH hub_links USING INDEX sqlite_autoindex_hub_links_1 \(lead_id=\?\)/);
    // The lead's attribution (its one active claim) seeks company_claims by lead.
    expect(lead).toMatch(/SEARCH company_claims USING INDEX company_claims_lead \(lead_id=\?\)/);
    expect(documents).toMatch(/SEARCH documents USING INDEX documents_lead \(lead_id=\?\)/);
    expect(offers).toMatch(/SEARCH offers USING INDEX offers_lead \(lead_id=\?\)/);
    // The routed options the partner's anonymised outcomes are read from.
    expect(deals).toMatch(/SEARCH deals USING INDEX deals_lead \(lead_id=\?\)/);
    // The renewals seek renewal_of, never the account's (organisation, environment) range.
    expect(renewals).toMatch(/SEARCH leads USING INDEX leads_renewal_of \(renewal_of=\?\)/);
    expect(renewals).not.toContain("leads_scope_created");
    expect(answers).toMatch(/SEARCH register_answers USING INDEX sqlite_autoindex_register_answers_1 \(owner_id=\?/);
    // Each list is held to the caller's lead: the scoped lead by its primary key, inside the list's statement.
    for (const list of [documents, offers, deals, answers]) expect(list).toContain("SEARCH leads USING INDEX sqlite_autoindex_leads_1 (id=?)");
  });

  it("name each column once and bind the scope and id as values, never as SQL text", async () => {
    // A D1 batch answers rows as objects keyed by column name: a name twice would lose one of the values.
    const [{ sql, params }] = statements as [{ sql: string; params: unknown[] }];
    const [columns] = await env.DB.prepare(sql).bind(...params).raw({ columnNames: true });
    expect(new Set(columns).size).toBe(columns!.length);
    for (const statement of statements) {
      expect(statement.sql).not.toContain("org_plan");
      expect(statement.sql).not.toContain("lead-1");
    }
    expect(statements[0]!.params).toEqual(expect.arrayContaining(["org_plan", "live", "lead-1"]));
  });
});
