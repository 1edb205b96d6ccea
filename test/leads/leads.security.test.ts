import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { createOrganisation, expectProblem, issueKey, partnerWithKeys } from "../helpers/seed";
import { createLead } from "./helpers";

describe("lead access", () => {
  it("answers another account's lead with 404 not_found on every operation", async () => {
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    const lead = await createLead(a.sandbox.key);
    const path = `/partner/v1/leads/${lead.id}`;
    expectProblem(await call("GET", path, { key: b.sandbox.key }), 404, "not_found");
    expectProblem(await call("PATCH", path, { key: b.sandbox.key, body: { partner_reference: "x" } }), 404, "not_found");
    expectProblem(await call("PUT", `${path}/significant-persons`, { key: b.sandbox.key, body: { significant_persons: [] } }), 404, "not_found");
    expect((await call("GET", path, { key: a.sandbox.key })).body.partner_reference).toBe(lead.partner_reference);
  });

  it("answers a lead of the other environment with 404 not_found", async () => {
    const { sandbox, live } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    expectProblem(await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key }), 404, "not_found");
    expectProblem(await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: live.key, body: {} }), 404, "not_found");
    expectProblem(await call("PUT", `/partner/v1/leads/${lead.id}/significant-persons`, { key: live.key, body: { significant_persons: [] } }), 404, "not_found");
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key }), 404, "not_found");
    // And the other way round: a live lead is invisible to the sandbox key.
    const liveLead = await createLead(live.key);
    expectProblem(await call("GET", `/partner/v1/leads/${liveLead.id}`, { key: sandbox.key }), 404, "not_found");
    expectProblem(await call("PATCH", `/partner/v1/leads/${liveLead.id}`, { key: sandbox.key, body: { partner_reference: "x" } }), 404, "not_found");
    expect((await call("GET", `/partner/v1/leads/${liveLead.id}`, { key: live.key })).body.partner_reference).toBe(liveLead.partner_reference);
  });

  it("answers another account's lead with 404 on submit and changes nothing", async () => {
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    const lead = await createLead(a.sandbox.key);
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: b.sandbox.key }), 404, "not_found");
    expectProblem(await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: b.sandbox.key, body: { partner_reference: "stolen" } }), 404, "not_found");
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: a.sandbox.key })).body).toEqual(lead);
  });

  it("answers an unknown id with the same 404", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/leads/${crypto.randomUUID()}`, { key: sandbox.key });
    expectProblem(res, 404, "not_found");
    expectProblem(await call("GET", "/partner/v1/leads/not-a-uuid", { key: sandbox.key }), 404, "not_found");
  });

  it("refuses an id longer than any lead id with 400 naming it", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/leads/${"a".repeat(65)}`, { key: sandbox.key });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("param.id");
  });

  it("keeps references unique and leads apart across environments", async () => {
    const { sandbox, live } = await partnerWithKeys();
    const refs = new Set<string>();
    const sandboxLeads = [];
    const liveLeads = [];
    for (let i = 0; i < 5; i++) {
      sandboxLeads.push(await createLead(sandbox.key, { country: "GB" }));
      liveLeads.push(await createLead(live.key, { country: "GB" }));
    }
    for (const lead of [...sandboxLeads, ...liveLeads]) refs.add(lead.reference);
    expect(refs.size).toBe(10);
    for (const [mine, theirs, key] of [
      [sandboxLeads, liveLeads, sandbox.key],
      [liveLeads, sandboxLeads, live.key],
    ] as const) {
      for (const lead of theirs) expectProblem(await call("GET", `/partner/v1/leads/${lead.id}`, { key }), 404, "not_found");
      const listed = (await call("GET", "/partner/v1/leads?limit=100", { key })).body.leads.map((l: { id: string }) => l.id);
      expect(listed.sort()).toEqual(mine.map((l) => l.id).sort());
    }
  });

  // No key, a lender key and a live key on the sandbox host: test/security.test.ts, for every operation.
  it("refuses publishable keys", async () => {
    const partner = await createOrganisation("partner");
    const publishable = await issueKey(partner.id, "sandbox", "publishable", ["https://shop.example"]);
    expectProblem(await call("POST", "/partner/v1/leads", { key: publishable.key, body: { country: "GB" } }), 403, "wrong_key_type");
    expectProblem(await call("GET", "/partner/v1/leads", { key: publishable.key }), 403, "wrong_key_type");
  });

  it("ignores attempts to set server-held fields", async () => {
    const { sandbox } = await partnerWithKeys();
    for (const field of ["id", "reference", "state", "environment", "submitted_at", "matched_options", "timeline", "upload_url"]) {
      const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body: { country: "GB", [field]: "x" } });
      expectProblem(res, 400, "invalid_request");
      expect(res.body.error.field).toBe(field);
    }
  });
});

describe("lead references", () => {
  it("retries on a reference taken in the same environment, and allows it in the other", async () => {
    const { env } = await import("cloudflare:workers");
    const { database } = await import("../../src/db/client");
    const { openLead } = await import("../../src/services/leads/leads");
    const { marketFor } = await import("../../src/domain/reference/markets");
    const { organisation } = await partnerWithKeys();
    const db = database(env.DB);
    const taken = `RF-${crypto.randomUUID().slice(0, 6).toUpperCase()}`;
    const fresh = `RF-${crypto.randomUUID().slice(0, 6).toUpperCase()}`;
    const sandbox = { organisationId: organisation.id, environment: "sandbox" as const };
    const live = { organisationId: organisation.id, environment: "live" as const };
    await openLead(db, sandbox, marketFor("GB"), {}, () => taken);
    const tries = [taken, fresh];
    const second = await openLead(db, sandbox, marketFor("GB"), {}, () => tries.shift()!);
    expect(second.reference).toBe(fresh);
    expect((await openLead(db, live, marketFor("GB"), {}, () => taken)).reference).toBe(taken);
  });
});
