import { describe, expect, it } from "vitest";
import { readDealWithRelations } from "../../src/db/deals/with-relations";
import { planLines, planText } from "../helpers/query-plan";


// The lender's deal read (`GET /v1/deals/{ref}`) is one batch of five statements (the deal, its offers, its
// documents, its register answers, the commission disclosures the business was shown) whose SQL
// is built once per isolate and bound to each request's scope and reference (db/prepared-batch.ts).
describe("the lender's deal read", () => {
  it("is five statements bound per request; the deal, its offers and its disclosures each seek an index", async () => {
    const statements = readDealWithRelations.statements({ organisationId: "org_deal_plan", environment: "live", ref: "DL-PLAN0001" });
    expect(statements).toHaveLength(5);
    for (const [i, { sql, params }] of statements.entries()) {
      expect(sql).not.toContain("org_deal_plan");
      expect(sql).not.toContain("DL-PLAN0001");
      expect(params).toEqual(expect.arrayContaining(["org_deal_plan", "live", "DL-PLAN0001"]));
      // Not the register answers' (i = 3): a table of a few rows in this runtime, which SQLite rightly
      // scans once another file's ANALYZE has counted them. The documents' (i = 2) seek since migration
      // 0019's partial indexes; test/lists/query-plans.test.ts asserts that over seeded documents.
      if (i === 3) continue;
      for (const line of await planLines({ sql, params })) expect(line).not.toMatch(/^SCAN (?!CONSTANT ROW)/);
    }
    expect(await planText(statements[0]!)).toContain("SEARCH deals USING INDEX sqlite_autoindex_deals_1 (ref=?)");
  });
});
