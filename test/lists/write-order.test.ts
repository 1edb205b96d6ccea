import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { insertAuditEntry } from "../../src/db/portal/audit";
import { eventInsert } from "../../src/db/webhooks/events";
import { testDealsOf } from "../../src/services/deals/test-deals";
import { workQueue } from "../../src/services/deals/work-queue";
import { auditLogOf } from "../../src/services/portal/members";
import { admin, call, type ApiResponse } from "../helpers/api";
import { createOrganisation, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { routedLead } from "../lender/helpers";
import { sandboxDeps, testDeps } from "../helpers/deps";
import { dataDb, inData } from "../helpers/data-db";

// Issue 28 item 6: rows written in the same millisecond must come out in the order they were written,
// newest-written first, on one page and across pages (the cursor carries the tie-breaker). Each list
// below gets three rows with one timestamp whose ids sort AGAINST the order of writing, so a list
// ordered by (timestamp, id) gives them back oldest-written first and fails here every time.
const SAME_MOMENT = "2099-01-01T00:00:00.000Z";
const WRITTEN = ["3", "2", "1"] as const;
const NEWEST_WRITTEN_FIRST = ["1", "2", "3"];

/** Inserts a copy of one existing row with some columns replaced: a real row of the product, not a hand-made one. */
async function copyRow(table: string, keyColumn: string, key: string, overrides: Record<string, unknown>) {
  // In the database the row is in: its environment's (a sandbox row's is DB_SANDBOX, docs/capacity.md).
  const row = await inData.prepare(`select * from ${table} where ${keyColumn} = ?`).bind(key).first<Record<string, unknown>>();
  if (!row) throw new Error(`no ${table} row ${key}`);
  const merged = { ...row, ...overrides };
  const columns = Object.keys(merged);
  await dataDb(row.environment === "sandbox" ? "sandbox" : "live").prepare(`insert into ${table} (${columns.map((c) => `"${c}"`).join(", ")}) values (${columns.map(() => "?").join(", ")})`)
    .bind(...columns.map((c) => merged[c]))
    .run();
}

/** Pages through a list one row at a time, following `next_cursor`. */
async function pageByOne(path: string, key: string, items: string, id: (item: any) => string, pages = 3) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < pages; i++) {
    const separator = path.includes("?") ? "&" : "?";
    const res: ApiResponse = await call("GET", `${path}${separator}limit=1${cursor ? `&cursor=${cursor}` : ""}`, { key });
    expect(res.status, res.text).toBe(200);
    seen.push(...res.body[items].map(id));
    cursor = res.body.next_cursor;
  }
  return seen;
}

describe("lists order rows written in the same millisecond by the order of writing", () => {
  it("partner leads", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    for (const n of WRITTEN) await copyRow("leads", "id", lead.id, { id: `${lead.id}_${n}`, reference: `${lead.reference}${n}`, created_at: SAME_MOMENT });
    const all = await call("GET", "/partner/v1/leads", { key: sandbox.key });
    expect(all.body.leads.slice(0, 3).map((l: any) => l.id)).toEqual(NEWEST_WRITTEN_FIRST.map((n) => `${lead.id}_${n}`));
    expect(await pageByOne("/partner/v1/leads", sandbox.key, "leads", (l) => l.id)).toEqual(NEWEST_WRITTEN_FIRST.map((n) => `${lead.id}_${n}`));
  });

  it("lender deals", async () => {
    const { refA, keys } = await routedLead();
    for (const n of WRITTEN) await copyRow("deals", "ref", refA, { ref: `${refA}${n}`, created_at: SAME_MOMENT });
    expect(await pageByOne("/v1/deals", keys.a.live, "deals", (d) => d.ref)).toEqual(NEWEST_WRITTEN_FIRST.map((n) => `${refA}${n}`));
  });

  it("events", async () => {
    const { organisation, live } = await lenderWithKeys();
    const db = database(env.DB);
    for (const n of WRITTEN) {
      await eventInsert(db, { organisationId: organisation.id, environment: "live", api: "lender", subjectType: "deal", event: "deal.created", subjectId: `RF-ORDER${n}` }, SAME_MOMENT);
    }
    // eventInsert draws random ids; give them ids that sort against the order of writing.
    for (const n of WRITTEN) await env.DB.prepare("update events set id = ? where subject_id = ?").bind(`evt_order_${n}`, `RF-ORDER${n}`).run();
    const expected = NEWEST_WRITTEN_FIRST.map((n) => `RF-ORDER${n}`);
    expect(await pageByOne("/v1/events", live.key, "events", (e) => e.subject.id)).toEqual(expected);
    expect(await pageByOne("/v1/events?event=deal.created", live.key, "events", (e) => e.subject.id)).toEqual(expected);
  });

  it("webhook deliveries", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const created = await call("POST", "/partner/v1/webhooks", { key: sandbox.key, body: { url: "https://receiver.example.test/hook" } });
    expect(created.status, created.text).toBe(201);
    const endpointId = created.body.id as string;
    for (const n of WRITTEN) {
      await env.DB_SANDBOX.prepare(
        "insert into webhook_deliveries (id, endpoint_id, organisation_id, environment, event_id, event, payload_mode, body, state, created_at, updated_at) values (?, ?, ?, 'sandbox', ?, 'lead.created', 'reference', '{}', 'succeeded', ?, ?)",
      )
        .bind(`whd_order_${n}`, endpointId, organisation.id, `evt_order_delivery_${n}`, SAME_MOMENT, SAME_MOMENT)
        .run();
    }
    expect(await pageByOne(`/partner/v1/webhooks/${endpointId}/deliveries`, sandbox.key, "deliveries", (d) => d.id)).toEqual(NEWEST_WRITTEN_FIRST.map((n) => `whd_order_${n}`));
  });

  it("the portal's audit log", async () => {
    const org = await createOrganisation("lender");
    const db = database(env.DB);
    for (const n of WRITTEN) {
      await insertAuditEntry(db, { id: `aud_order_${n}`, organisationId: org.id, memberId: "mem_order", environment: "sandbox", action: "deal.viewed", target: `deal_${n}`, at: SAME_MOMENT });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 3; i++) {
      const page = await auditLogOf(testDeps(), { organisationId: org.id }, cursor, 1);
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    }
    expect(seen).toEqual(NEWEST_WRITTEN_FIRST.map((n) => `aud_order_${n}`));
  });

  it("the portal's audit log, merged from both databases (an entry lives with its action's batch): by time, then the control database's first, one page at a time", async () => {
    const org = await createOrganisation("lender");
    const entry = (id: string, at: string) => ({ id, organisationId: org.id, memberId: "mem_order", environment: "sandbox" as const, action: "deal.viewed", target: id, at });
    const earlier = "2098-12-31T00:00:00.000Z";
    // The sandbox's entries: three at the same moment, one earlier; the control database's: two at that moment, one earlier.
    for (const n of WRITTEN) await insertAuditEntry(database(env.DB_SANDBOX), entry(`aud_sbx_${n}`, SAME_MOMENT));
    await insertAuditEntry(database(env.DB_SANDBOX), entry("aud_sbx_early", earlier));
    for (const n of ["2", "1"]) await insertAuditEntry(database(env.DB), entry(`aud_ctl_${n}`, SAME_MOMENT));
    await insertAuditEntry(database(env.DB), entry("aud_ctl_early", earlier));
    const expected = ["aud_ctl_1", "aud_ctl_2", "aud_sbx_1", "aud_sbx_2", "aud_sbx_3", "aud_ctl_early", "aud_sbx_early"];
    for (const size of [1, 2, 3]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await auditLogOf(testDeps(), { organisationId: org.id }, cursor, size);
        seen.push(...page.entries.map((e) => e.id));
        cursor = page.nextCursor ?? undefined;
        if (!cursor) break;
      }
      expect({ size, seen }).toEqual({ size, seen: expected });
    }
  });

  it("a lender's test deals (newest first)", async () => {
    const { organisation, sandbox } = await lenderWithKeys();
    const created = await call("POST", "/v1/test/deals", { key: sandbox.key, body: {} });
    expect(created.status, created.text).toBe(201);
    const ref = created.body.ref as string;
    for (const n of WRITTEN) await copyRow("deals", "ref", ref, { ref: `${ref}${n}`, created_at: SAME_MOMENT });
    // The list the portal's sandbox page shows (no GET in the API).
    const list = await testDealsOf(sandboxDeps(), { organisationId: organisation.id, environment: "sandbox" });
    expect(list.deals.map((d) => d.ref)).toEqual([...NEWEST_WRITTEN_FIRST.map((n) => `${ref}${n}`), ref]);
  });

  it("the lender's work queue (oldest first)", async () => {
    const { organisation, sandbox } = await lenderWithKeys();
    const created = await call("POST", "/v1/test/deals", { key: sandbox.key, body: {} });
    expect(created.status, created.text).toBe(201);
    const ref = created.body.ref as string;
    const moment = "2000-01-01T00:00:00.000Z";
    for (const n of WRITTEN) await copyRow("deals", "ref", ref, { ref: `${ref}${n}`, created_at: moment });
    const queue = await workQueue(sandboxDeps(), { organisationId: organisation.id, environment: "sandbox" });
    const refs = queue.groups.flatMap((g) => g.deals.map((d) => d.ref));
    expect(refs).toEqual([...WRITTEN.map((n) => `${ref}${n}`), ref]);
  });

  it("an organisation's pending portal invitations (oldest first)", async () => {
    const org = await createOrganisation("partner");
    const invited = await admin<any>("POST", `/organisations/${org.id}/invitations`, { email: `order-${crypto.randomUUID()}@example.com`, role: "member" });
    expect(invited.status, invited.text).toBe(201);
    const id = invited.body.id as string;
    for (const n of WRITTEN) {
      await copyRow("portal_invitations", "id", id, { id: `${id}_${n}`, email: `order-${n}-${crypto.randomUUID()}@example.com`, token_hash: crypto.randomUUID(), created_at: "2000-01-01T00:00:00.000Z" });
    }
    const pending = await admin<any>("GET", `/organisations/${org.id}/invitations`);
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body.data.map((i: any) => i.id)).toEqual([...WRITTEN.map((n) => `${id}_${n}`), id]);
  });
});
