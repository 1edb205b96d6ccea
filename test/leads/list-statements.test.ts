import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { uploadDocument } from "../documents/helpers";
import { bytes, pdf, png, signedAmountCsv } from "../documents/fixtures";
import { createLead } from "./helpers";

describe("statements_available in the lead list", () => {
  it("is true exactly for leads with an accepted, parsed statement, agreeing with the full Lead's statements.has_statements", async () => {
    const { sandbox } = await partnerWithKeys();
    const parsed = await createLead(sandbox.key);
    const unparsed = await createLead(sandbox.key);
    const rejected = await createLead(sandbox.key);
    const none = await createLead(sandbox.key);
    await uploadDocument(sandbox.key, parsed.id, "bank_statements", bytes(signedAmountCsv), "apr-may.csv");
    await uploadDocument(sandbox.key, unparsed.id, "bank_statements", pdf(), "statement.pdf");
    await uploadDocument(sandbox.key, rejected.id, "bank_statements", png(), "screenshot.png");

    const list = await call("GET", "/partner/v1/leads", { key: sandbox.key });
    expect(list.status).toBe(200);
    const flags = Object.fromEntries(list.body.leads.map((l: { id: string; statements_available: boolean }) => [l.id, l.statements_available]));
    expect(flags).toEqual({ [parsed.id]: true, [unparsed.id]: false, [rejected.id]: false, [none.id]: false });
    for (const lead of [parsed, unparsed, rejected, none]) {
      const full = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
      expect(full.body.statements.has_statements, lead.id).toBe(flags[lead.id]);
    }
  });
  // That it is answered inside the page's own query, seeking documents_lead, is a plan: test/lists/query-plans.test.ts
  // asserts it over seeded documents, with and without statistics (here a few rows left by other files are rightly scanned).
});
