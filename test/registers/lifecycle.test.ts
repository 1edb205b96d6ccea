import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { marketFor } from "../../src/domain/reference/markets";
import { openLead } from "../../src/services/leads/leads";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { callRecording, consumeLookups, dueMessages, lookupRows, recordingQueue, settle, ukLead } from "./lookups-support";
import { testDeps } from "../helpers/deps";

describe("register lookups: enqueued off the request path", () => {
  it("creating a lead with a company and a VAT number enqueues one lookup each and shows nothing yet", async () => {
    const { sandbox } = await partnerWithKeys();
    const { queue, sent } = recordingQueue();
    const res = await callRecording(queue, "POST", "/partner/v1/leads", sandbox.key, ukLead("00000001", "GB100000001"));
    expect(res.status).toBe(201);
    expect(res.body.business.registry).toBeNull();
    expect(res.body.business.vat).toMatchObject({ number: "GB100000001", valid: null, checked_at: null });

    const rows = await lookupRows(res.body.id);
    expect(rows.map((r) => [r.kind, r.number, r.country, r.answer, r.attempts])).toEqual([
      ["registry", "00000001", "GB", null, 0],
      ["vat", "GB100000001", "GB", null, 0],
    ]);
    expect(sent).toEqual(rows.map((r) => ({ owner_id: res.body.id, kind: r.kind, lookup_id: r.lookup_id, environment: r.environment })));
  });

  it("a lead without numbers, or in a market without a VAT register, enqueues nothing it cannot ask", async () => {
    const { sandbox } = await partnerWithKeys();
    const { queue, sent } = recordingQueue();
    const bare = await callRecording(queue, "POST", "/partner/v1/leads", sandbox.key, { country: "GB" });
    expect(bare.status).toBe(201);
    const us = await callRecording(queue, "POST", "/partner/v1/leads", sandbox.key, { country: "US", business: { company_number: "C1234567" } });
    expect(us.status).toBe(201);
    expect(sent.map((m) => [m.owner_id, m.kind])).toEqual([[us.body.id, "registry"]]);
    expect(await lookupRows(bare.body.id)).toEqual([]);
  });

  it("stores the answer with checked_at and shows it on the lead", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000001", "GB100000001"));
    const result = await settle(lead.id);
    expect(result.explicitAcks.length).toBe(2);

    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(read.business.registry).toMatchObject({
      source: "official_register",
      status: "available",
      registered_name: "SANDBOX TRADING LTD",
      incorporated_on: "2019-03-14",
      company_status: "active",
      sic_codes: ["47910"],
      psc_count: 1,
      charges_count: 0,
      has_insolvency_history: false,
      accounts: { overdue: false },
      filed_financials: { period_end: "2025-12-31", turnover: 1_250_000, basis: "filed_accounts" },
      identifiers: { vat_number: "GB100000001" },
    });
    expect(read.business.registry.directors).toHaveLength(2);
    expect(Date.parse(read.business.registry.checked_at)).not.toBeNaN();
    expect(read.business.vat).toMatchObject({ number: "GB100000001", valid: true, source: "vat_validation", registered_name: "Sandbox Trading Ltd", reason: null });
    const rows = await lookupRows(lead.id);
    expect(rows.every((r) => r.due_at === null && r.attempts === 1 && r.checked_at === r.answer.checked_at)).toBe(true);
  });

  it("drops the old answer in the PATCH that changes the number, and asks anew", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000001"));
    await settle(lead.id);
    const [before] = await lookupRows(lead.id);

    const { queue, sent } = recordingQueue();
    const patched = await callRecording(queue, "PATCH", `/partner/v1/leads/${lead.id}`, sandbox.key, { business: { company_number: "00000002" } });
    expect(patched.status).toBe(200);
    // The old company's facts are gone at once: not yet known for the new number.
    expect(patched.body.business.registry).toBeNull();
    expect(patched.body.trading.tib_months_basis).toBe("band_midpoint");
    const [after] = await lookupRows(lead.id);
    expect(after).toMatchObject({ number: "00000002", answer: null, attempts: 0 });
    expect(after.lookup_id).not.toBe(before.lookup_id);
    expect(sent).toEqual([{ owner_id: lead.id, kind: "registry", lookup_id: after.lookup_id, environment: after.environment }]);

    // The old lookup's message, arriving late, stores nothing.
    const late = await consumeLookups([{ owner_id: lead.id, kind: "registry", lookup_id: before.lookup_id, environment: before.environment }]);
    expect(late.explicitAcks.length).toBe(1);
    expect((await lookupRows(lead.id))[0].answer).toBeNull();

    await settle(lead.id);
    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(read.business.registry).toMatchObject({ status: "available", company_status: "dissolved" });
  });

  it("a PATCH that keeps the number asks nothing; clearing it drops the answer; a market change asks again", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000001", "GB100000001"));
    await settle(lead.id);
    const { queue, sent } = recordingQueue();

    const same = await callRecording(queue, "PATCH", `/partner/v1/leads/${lead.id}`, sandbox.key, { business: { company_number: "00000001", name: "Renamed Ltd" } });
    expect(same.status).toBe(200);
    expect(same.body.business.registry).toMatchObject({ status: "available" });
    expect(sent).toEqual([]);

    const cleared = await callRecording(queue, "PATCH", `/partner/v1/leads/${lead.id}`, sandbox.key, { business: { vat: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.business.vat).toMatchObject({ number: null, valid: null, reason: "no_number" });
    expect((await lookupRows(lead.id)).map((r) => r.kind)).toEqual(["registry"]);
    expect(sent).toEqual([]);

    const moved = await callRecording(queue, "PATCH", `/partner/v1/leads/${lead.id}`, sandbox.key, { country: "IE", business: { entity_type: null } });
    expect(moved.status).toBe(200);
    expect(moved.body.business.registry).toBeNull();
    expect(sent).toEqual((await dueMessages(lead.id)));
    expect((await lookupRows(lead.id))[0]).toMatchObject({ country: "IE", number: "00000001", answer: null });
  });

  it("a live lead is looked up in the real registers: with no credentials configured each answers not_configured, once", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key, ukLead("09876543", "GB123456789"));
    const result = await settle(lead.id);
    expect(result.retryMessages).toEqual([]);
    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key })).body;
    // Never asked: only {source, status, reason}.
    expect(read.business.registry).toEqual({ source: "official_register", status: "unavailable", reason: "not_configured" });
    expect(read.business.vat).toMatchObject({ number: "GB123456789", valid: null, reason: "not_configured" });
    expect((await lookupRows(lead.id)).map((r) => [r.kind, r.attempts, r.due_at])).toEqual([
      ["registry", 1, null],
      ["vat", 1, null],
    ]);
  });

  it("a lead whose reference collided is written once with its lookups, on the retry", async () => {
    const { organisation } = await partnerWithKeys();
    const scope = { organisationId: organisation.id, environment: "sandbox" as const };
    const taken = `RF-${crypto.randomUUID().slice(0, 6).toUpperCase()}`;
    const refs = [taken, taken, `RF-${crypto.randomUUID().slice(0, 6).toUpperCase()}`];
    const { queue, sent } = recordingQueue();
    const parts = ukLead("00000001", "GB100000001") as never;
    const deps = testDeps({ env: { REGISTER_LOOKUPS: queue } });
    const first = await openLead(deps, { scope, market: marketFor("GB"), parts, makeReference: () => refs.shift()! });
    const second = await openLead(deps, { scope, market: marketFor("GB"), parts, makeReference: () => refs.shift()! });
    expect(second.reference).not.toBe(first.reference);
    expect((await lookupRows(second.id)).map((r) => r.kind)).toEqual(["registry", "vat"]);
    expect(sent.filter((m) => m.owner_id === second.id)).toHaveLength(2);
  });

  it("without the queue binding a lead is still written, its lookups waiting in storage", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await callRecording(undefined as unknown as Queue, "POST", "/partner/v1/leads", sandbox.key, ukLead("00000001"));
    expect(res.status).toBe(201);
    expect(await lookupRows(res.body.id)).toEqual([expect.objectContaining({ kind: "registry", answer: null, attempts: 0 })]);
  });
});
