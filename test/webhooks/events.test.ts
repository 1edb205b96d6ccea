import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { eventInsert } from "../../src/db/webhooks/events";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { writeEvent } from "./support/webhooks";

describe("GET /events", () => {
  it("lists the lender's own events in its environment, newest first, keyset-paginated", async () => {
    const { organisation, live } = await lenderWithKeys();
    const other = await lenderWithKeys();
    const at = (minute: number) => `2026-11-22T10:0${minute}:00.000Z`;
    const base = { organisationId: organisation.id, environment: "live" as const, api: "lender" as const, subjectType: "deal" as const };
    const db = database(env.DB);
    await eventInsert(db, { ...base, event: "deal.created", subjectId: "RF-AAA111" }, at(1));
    await eventInsert(db, { ...base, event: "deal.updated", subjectId: "RF-AAA111", detail: { update: { status: "in_review" } } }, at(2));
    await eventInsert(db, { ...base, event: "deal.created", subjectId: "RF-BBB222" }, at(3));
    await eventInsert(db, { ...base, environment: "sandbox", event: "deal.created", subjectId: "RF-SANDBOX" }, at(4));
    await eventInsert(db, { ...base, organisationId: other.organisation.id, event: "deal.created", subjectId: "RF-OTHER" }, at(5));

    const all = await call("GET", "/v1/events", { key: live.key });
    expect(all.status).toBe(200);
    expect(all.body.events.map((e: any) => e.subject.id)).toEqual(["RF-BBB222", "RF-AAA111", "RF-AAA111"]);
    expect(all.body.events[1]).toMatchObject({
      event: "deal.updated",
      environment: "live",
      livemode: true,
      subject: { type: "deal", id: "RF-AAA111" },
      data: { reference: "RF-AAA111", update: { status: "in_review" }, payload_mode: "reference" },
    });
    expect(all.body.next_cursor).toBeNull();

    const first = await call("GET", "/v1/events?limit=2", { key: live.key });
    expect(first.body.events).toHaveLength(2);
    const second = await call("GET", `/v1/events?limit=2&cursor=${first.body.next_cursor}`, { key: live.key });
    expect(second.body.events.map((e: any) => e.id)).toEqual([all.body.events[2].id]);
    expect(second.body.next_cursor).toBeNull();

    const bySubject = await call("GET", "/v1/events?subject=rf-aaa111", { key: live.key });
    expect(bySubject.body.events).toHaveLength(2);
    const byEvent = await call("GET", "/v1/events?event=deal.created", { key: live.key });
    expect(byEvent.body.events.map((e: any) => e.subject.id)).toEqual(["RF-BBB222", "RF-AAA111"]);
  });

  it("lists partner events by lead id", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    await writeEvent({ organisationId: organisation.id, environment: "sandbox", api: "partner", event: "lead.submitted", subjectType: "lead", subjectId: "lead-a" });
    await writeEvent({ organisationId: organisation.id, environment: "sandbox", api: "partner", event: "lead.submitted", subjectType: "lead", subjectId: "lead-b" });
    const res = await call("GET", "/partner/v1/events?subject=lead-b", { key: sandbox.key });
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([expect.objectContaining({ event: "lead.submitted", livemode: false, data: { lead_id: "lead-b", payload_mode: "reference" } })]);
  });

  it("refuses bad filters and cursors with 400 invalid_request", async () => {
    const { live } = await lenderWithKeys();
    const cases: [string, string][] = [
      ["/v1/events?event=lead.funded", "query.event"],
      ["/v1/events?limit=0", "query.limit"],
      ["/v1/events?limit=101", "query.limit"],
      ["/v1/events?cursor=garbage", "query.cursor"],
    ];
    for (const [path, field] of cases) {
      const res = await call("GET", path, { key: live.key });
      expectProblem(res, 400, "invalid_request");
      expect(res.body.error.field).toBe(field);
    }
  });
});
