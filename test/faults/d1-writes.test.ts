/**
 * A D1 failure anywhere in a write leaves no partial rows and no event: for
 * each write below, every one of its D1 calls is made to fail in turn (see
 * sweep.ts). A failure before the write's batch leaves nothing and answers 500
 * `internal_error`; a failure of the batch itself leaves nothing; a failure
 * after it (a read-back) leaves the whole change, events included.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/api";
import { callWithEnv, faultyEnv } from "../helpers/faults";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { form } from "../documents/helpers";
import { completeUkLead, createLead } from "../leads/helpers";
import { firmOffer, makeOffer } from "../lender/helpers";
import { submittedLead, twoLenderPanel } from "../routing/helpers";
import { env } from "cloudflare:workers";
import { sweepD1Faults, type SweepOutcome } from "./sweep";
import { inData } from "../helpers/data-db";
import { freshFormToken, signedInMember, type PortalSession } from "../helpers/portal";
import { auditOf, lenderAtLiveDeal, writtenFor } from "../portal/lender/support";

/** The batch is where the change is written: its failure must be one of the "nothing left" outcomes. */
function expectBatchLeavesNothing(outcomes: SweepOutcome[]) {
  const batches = outcomes.filter((o) => o.operation === "batch");
  expect(batches.length).toBeGreaterThan(0);
  expect(batches.some((o) => o.left === "none")).toBe(true);
}

/** A live lead routed to lenders A and B of a panel made once per test (keys stay under the rate limit). */
async function routing() {
  const panel = await twoLenderPanel();
  return async () => {
    const partner = await partnerWithKeys();
    const { lead } = await submittedLead(partner.live.key);
    const { results } = await inData.prepare("select ref, lender_organisation_id from deals where lead_id = ?").bind(lead.id).all<any>();
    const refOf = (orgId: string) => results.find((r) => r.lender_organisation_id === orgId)?.ref as string;
    return { ...panel, partner, lead, refA: refOf(panel.a.id), refB: refOf(panel.b.id) };
  };
}

describe("a D1 failure in the middle of a write", () => {
  // Each injected fault is logged by onError as an unexpected error; the sweep makes hundreds.
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("lead create: all or nothing", async () => {
    const outcomes = await sweepD1Faults({
      setup: async () => (await partnerWithKeys()).live.key,
      write: (faulty, key) => callWithEnv(faulty, "POST", "/partner/v1/leads", { key, body: completeUkLead() }),
      status: 201,
      events: [],
    });
    expect(outcomes.some((o) => o.left === "none")).toBe(true);
  });

  it("lead update (PATCH): all or nothing", async () => {
    const outcomes = await sweepD1Faults({
      setup: async () => {
        const { live } = await partnerWithKeys();
        return { key: live.key, lead: await createLead(live.key) };
      },
      write: (faulty, { key, lead }) => callWithEnv(faulty, "PATCH", `/partner/v1/leads/${lead.id}`, { key, body: { partner_reference: "patched-ref", funding: { amount: 45_000 } } }),
      status: 200,
      events: [],
    });
    expect(outcomes.some((o) => o.left === "none")).toBe(true);
  });

  it("submit (lead state, one deal per lender, four events): all or nothing", async () => {
    await twoLenderPanel();
    const outcomes = await sweepD1Faults({
      setup: async () => {
        const { live } = await partnerWithKeys();
        return { key: live.key, lead: await createLead(live.key) };
      },
      write: (faulty, { key, lead }) => callWithEnv(faulty, "POST", `/partner/v1/leads/${lead.id}/submit`, { key }),
      status: 200,
      events: ["deal.created", "deal.created", "lead.matched", "lead.submitted"],
    });
    expectBatchLeavesNothing(outcomes);
  });

  it("a lender's offer (offer row, deal status, deal.updated, lead.offers_available): all or nothing", async () => {
    const routed = await routing();
    const outcomes = await sweepD1Faults({
      setup: routed,
      write: (faulty, r) => callWithEnv(faulty, "POST", `/v1/deals/${r.refA}/offers`, { key: r.keys.a.live, body: firmOffer() }),
      status: 201,
      events: ["deal.updated", "lead.offers_available"],
    });
    expectBatchLeavesNothing(outcomes);
  });

  it("offer acceptance (the handover): all or nothing", async () => {
    const routed = await routing();
    const outcomes = await sweepD1Faults({
      setup: async () => {
        const r = await routed();
        return { ...r, offer: await makeOffer(r.keys.a.live, r.refA, firmOffer()) };
      },
      write: (faulty, r) => callWithEnv(faulty, "POST", `/partner/v1/leads/${r.lead.id}/offers/${r.offer.id}/acceptance`, { key: r.partner.live.key }),
      status: 200,
      events: ["lead.offer_accepted", "offer.accepted"],
    });
    expectBatchLeavesNothing(outcomes);
  });

  it("a lender's status report (declined by one of two lenders): all or nothing", async () => {
    const routed = await routing();
    const outcomes = await sweepD1Faults({
      setup: routed,
      write: (faulty, r) => callWithEnv(faulty, "POST", `/v1/deals/${r.refA}/status`, { key: r.keys.a.live, body: { status: "declined", reason: "Outside appetite" } }),
      status: 200,
      events: ["deal.updated"],
    });
    expectBatchLeavesNothing(outcomes);
  });

  it("webhook endpoint registration: all or nothing", async () => {
    const outcomes = await sweepD1Faults({
      setup: async () => (await partnerWithKeys()).live.key,
      write: (faulty, key) => callWithEnv(faulty, "POST", "/partner/v1/webhooks", { key, body: { url: "https://hooks.example.com/fault-sweep" } }),
      status: 201,
      events: [],
    });
    expect(outcomes.some((o) => o.left === "none")).toBe(true);
  });

  it("a lender's test deal (deal row and deal.created, under the 10-live cap): all or nothing", async () => {
    const outcomes = await sweepD1Faults({
      setup: async () => (await lenderWithKeys()).sandbox.key,
      write: (faulty, key) => callWithEnv(faulty, "POST", "/v1/test/deals", { key }),
      status: 201,
      events: ["deal.created"],
    });
    expectBatchLeavesNothing(outcomes);
  });

  it("document upload (row and document.accepted; the bytes' pending marker is the one thing left, for the sweeper)", async () => {
    const outcomes = await sweepD1Faults({
      setup: async () => {
        const { live } = await partnerWithKeys();
        return { key: live.key, lead: await createLead(live.key) };
      },
      write: (faulty, { key, lead }) =>
        callWithEnv(faulty, "POST", `/partner/v1/leads/${lead.id}/documents`, {
          key,
          form: form([
            { name: "document_type", value: "id_document" },
            { name: "file", value: new TextEncoder().encode("%PDF-1.7\n%%EOF\n"), filename: "passport.pdf", type: "application/pdf" },
          ]),
        }),
      status: 201,
      events: ["document.accepted"],
      leftovers: { pending_uploads: 1 },
    });
    expectBatchLeavesNothing(outcomes);
  });
});

describe("a portal action and its audit entry", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  /** A lender's offer from the deal page, as a browser posts it, through the given env. */
  const postOffer = async (testEnv: Cloudflare.Env, session: PortalSession, ref: string) =>
    callWithEnv(testEnv, "POST", `/portal/deals/${ref}/offers`, {
      headers: { "Sec-Fetch-Site": "same-origin", Cookie: session.cookie },
      contentType: "application/x-www-form-urlencoded",
      rawBody: new URLSearchParams({ _form_token: await freshFormToken(session), maturity: "firm", amount: "40000", kind: "business_loan", annual_rate_pct: "11.5", term_months: "24", fees: "800", total_repayment: "45900", expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10) }).toString(),
    });

  it("are written together or not at all: a fault in the audit insert leaves no offer, no event and an HTML error page with the request id", async () => {
    const { session, refA, lead } = await lenderAtLiveDeal();
    const before = await writtenFor(refA, lead.id);
    const faulty = faultyEnv({ d1: (_call, _operation, query) => /insert into "portal_audit_log"/i.test(query) });
    const answer = await postOffer(faulty.env, session, refA);
    expect(faulty.switches.d1.failed.length, "the audit insert was reached").toBeGreaterThan(0);
    expect(answer.status, answer.text.slice(0, 300)).toBe(500);
    expect(answer.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(answer.text).toContain(answer.headers.get("X-Request-Id") ?? "no request id header");
    const after = await writtenFor(refA, lead.id);
    expect({ offers: after.offers, events: after.events, deal: after.deal }).toEqual({ offers: before.offers, events: before.events, deal: before.deal });
    expect(await auditOf(session)).toEqual([]);

    // The same post without the fault: the offer, its events and its entry (about the new offer), together.
    const made = await postOffer(env, session, refA);
    expect(made.status, made.text.slice(0, 300)).toBe(303);
    const offer = await env.DB.prepare("select id from offers where deal_ref = ?").bind(refA).first<{ id: string }>();
    expect(await auditOf(session)).toEqual([{ action: "offer.made", target: offer!.id, environment: "live" }]);
  });

  it("in the sandbox, are written together in the sandbox's database (the audit log is in every database): a fault in the audit insert leaves nothing in either", async () => {
    // A lender's test deal, a sandbox deal; a new member's session opens in the sandbox.
    const lender = await lenderWithKeys();
    const created = await call("POST", "/v1/test/deals", { key: lender.sandbox.key, body: {} });
    expect(created.status, created.text).toBe(201);
    const ref = created.body.ref as string;
    const session = await signedInMember(lender.organisation.id, "member");
    const before = await writtenFor(ref, null);
    const faulty = faultyEnv({ d1: (_call, _operation, query) => /insert into "portal_audit_log"/i.test(query) });
    const answer = await postOffer(faulty.env, session, ref);
    expect(faulty.switches.d1.failed.length, "the audit insert was reached").toBeGreaterThan(0);
    expect(answer.status, answer.text.slice(0, 300)).toBe(500);
    const after = await writtenFor(ref, null);
    expect({ offers: after.offers, events: after.events, deal: after.deal }).toEqual({ offers: before.offers, events: before.events, deal: before.deal });
    expect(await auditOf(session)).toEqual([]);

    const made = await postOffer(env, session, ref);
    expect(made.status, made.text.slice(0, 300)).toBe(303);
    const offer = await env.DB_SANDBOX.prepare("select id from offers where deal_ref = ?").bind(ref).first<{ id: string }>();
    expect(await auditOf(session)).toEqual([{ action: "offer.made", target: offer!.id, environment: "sandbox" }]);
    // The entry is in the sandbox's database, with its offer; the live database has neither.
    const entryIn = async (db: D1Database) => (await db.prepare("select count(*) n from portal_audit_log where target = ?").bind(offer!.id).first<{ n: number }>())!.n;
    expect({ sandbox: await entryIn(env.DB_SANDBOX), live: await entryIn(env.DB) }).toEqual({ sandbox: 1, live: 0 });
  });
});

describe("what a D1 failure logs", () => {
  it("logs the failure's cause, never the bound values (personal data, sealed secrets)", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void logged.push(String(line)));
    const { live } = await partnerWithKeys();
    const probe = faultyEnv();
    await callWithEnv(probe.env, "POST", "/partner/v1/leads", { key: live.key, body: completeUkLead() });
    // Fail the last call: the lead's own insert (one batch), whose parameters hold the contact's details.
    const res = await callWithEnv(faultyEnv({ d1: probe.switches.d1.calls }).env, "POST", "/partner/v1/leads", { key: live.key, body: completeUkLead() });
    expect(res.status).toBe(500);
    const line = logged.find((l) => l.includes("injected fault"));
    expect(line, JSON.stringify(logged)).toBeDefined();
    const entry = JSON.parse(line!);
    expect(entry).toMatchObject({ level: "error" });
    // A single statement that fails is logged by its SQL (`D1 query failed`, see lib/loggable-error.ts); a batch by its cause and stack.
    if (entry.error === "D1 query failed") expect(entry).toMatchObject({ query: expect.stringMatching(/^(insert|select)/), cause: expect.stringContaining("injected fault") });
    expect(line).not.toContain("ada@example.com");
    expect(line).not.toContain("Lovelace");
  });
});
