import { describe, expect, it } from "vitest";
import { routedClient, type D1Client } from "../../../src/db/client";
import { CONTROL_TABLES, CrossDatabaseStatement, sideOfStatement } from "../../../src/db/placement";
import { sandboxRetentionDays } from "../../../src/domain/retention";

/** A stand-in D1 client that records the SQL it prepared and the batches it ran (the statements' SQL). */
function recording(name: string) {
  const prepared: string[] = [];
  const batches: string[][] = [];
  const statement = (sql: string, values: unknown[] = []): D1PreparedStatement =>
    ({ sql, values, bind: (...more: unknown[]) => statement(sql, [...values, ...more]), first: async () => ({ from: name, sql }) }) as unknown as D1PreparedStatement;
  const client: D1Client = {
    prepare: (sql) => (prepared.push(sql), statement(sql)),
    batch: async (statements) => (batches.push(statements.map((s) => (s as unknown as { sql: string }).sql)), statements.map(() => ({}) as D1Result)) as never,
  };
  return { client, prepared, batches };
}

describe("the routed client: control tables from DB, environment data from its own database (docs/capacity.md)", () => {
  it("reads a statement's tables after from, join, into and update, quoted or not", () => {
    expect(sideOfStatement(`select "id" from "organisations" where "organisations"."id" = ?`)).toBe("control");
    expect(sideOfStatement(`insert into "leads" ("id") values (?)`)).toBe("data");
    expect(sideOfStatement(`update api_keys set revoked_at = ?`)).toBe("control");
    expect(sideOfStatement(`delete from "webhook_deliveries" where "id" in (select "id" from "webhook_deliveries" limit ?)`)).toBe("data");
    expect(sideOfStatement(`select * from "leads" inner join "organisations" on 1`)).toBe("mixed");
    expect(sideOfStatement(`insert into "portal_audit_log" select ? where exists (select 1 from "company_claims")`)).toBe("data");
    expect(sideOfStatement(`insert into "portal_audit_log" select ? where exists (select 1 from "portal_members")`)).toBe("control");
    expect(sideOfStatement(`insert into "portal_audit_log" select ? where changes() > 0`)).toBe("either");
    expect(sideOfStatement(`select * from "leads" inner join "portal_members" on 1 inner join "portal_audit_log" on 1`)).toBe("mixed");
    // A column named like a table is not a table: organisation_id is not organisations.
    expect(sideOfStatement(`select "organisation_id" from "events"`)).toBe("data");
    expect(sideOfStatement("select 1")).toBe("data");
  });

  it("a new table is environment data unless it is listed as control", () => {
    expect(CONTROL_TABLES.has("commission_ledger")).toBe(false);
    expect(sideOfStatement(`insert into "commission_ledger" ("id") values (?)`)).toBe("data");
    for (const table of ["organisations", "api_keys", "access_tokens", "panel_products", "portal_members", "portal_sessions", "commission_terms"]) expect(CONTROL_TABLES.has(table)).toBe(true);
    // What main added with the commission, the application link and the lender's working set follows its lead or deal.
    for (const table of ["commission_entries", "commission_disclosures", "application_links", "deal_notes"]) expect(sideOfStatement(`select * from "${table}"`)).toBe("data");
  });

  it("puts an audit entry in its batch's database, and one on its own in the control database", async () => {
    const control = recording("control");
    const data = recording("data");
    const routed = routedClient(control.client, data.client);
    const entry = `insert into "portal_audit_log" select ? where changes() > 0`;
    await routed.batch([routed.prepare(`update "deals" set x = 1`), routed.prepare(entry).bind("aud_1")]);
    await routed.batch([routed.prepare(`update "api_keys" set x = 1`), routed.prepare(entry).bind("aud_2")]);
    expect(data.batches).toEqual([[`update "deals" set x = 1`, entry]]);
    expect(control.batches).toEqual([[`update "api_keys" set x = 1`, entry]]);
    expect(await routed.prepare(`update "portal_audit_log" set target = ?`).bind("x").first()).toMatchObject({ from: "control" });
  });

  it("sends each statement to its database, bound or not, and a batch to the one database it is in", async () => {
    const control = recording("control");
    const data = recording("data");
    const routed = routedClient(control.client, data.client);
    expect(await routed.prepare(`select * from "organisations"`).first()).toMatchObject({ from: "control" });
    expect(await routed.prepare(`select * from "leads" where id = ?`).bind("l1").first()).toMatchObject({ from: "data" });
    await routed.batch([routed.prepare(`insert into "leads" values (?)`).bind(1), routed.prepare(`insert into "events" values (?)`).bind(2)]);
    expect(data.batches).toEqual([[`insert into "leads" values (?)`, `insert into "events" values (?)`]]);
    expect(control.batches).toEqual([]);
  });

  it("refuses a join or a batch across the two databases, which neither could run", async () => {
    const routed = routedClient(recording("control").client, recording("data").client);
    expect(() => routed.prepare(`select * from "leads" join "organisations" on 1`)).toThrow(CrossDatabaseStatement);
    expect(() => routed.batch([routed.prepare(`update "api_keys" set x = 1`), routed.prepare(`update "leads" set x = 1`)])).toThrow(CrossDatabaseStatement);
  });

  it("is the database itself when control and data are the same one (live): nothing is routed or refused", () => {
    const one = recording("one");
    expect(routedClient(one.client, one.client)).toBe(one.client);
  });
});

describe("SANDBOX_RETENTION_DAYS", () => {
  it("is at least a day; absent or unreadable, a week; never a failure", () => {
    expect(sandboxRetentionDays("3")).toBe(3);
    expect(sandboxRetentionDays(undefined)).toBe(7);
    expect(sandboxRetentionDays("")).toBe(7);
    expect(sandboxRetentionDays("soon")).toBe(7);
    expect(sandboxRetentionDays("-2")).toBe(7);
    expect(sandboxRetentionDays("1.5")).toBe(7);
    expect(sandboxRetentionDays("0")).toBe(7);
    expect(sandboxRetentionDays("1")).toBe(1);
  });
});
