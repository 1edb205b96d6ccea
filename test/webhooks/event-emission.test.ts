import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { call, SANDBOX } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { firmOffer, makeOffer } from "../lender/helpers";
import { submittedLead, twoLenderPanel } from "../routing/helpers";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "./support/webhooks";
import { portal } from "../helpers/portal";
import { liveSession } from "../portal/lender/support";
import { inData } from "../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

// Which events the HTTP API really writes, driven through a lead's whole life: every partner
// lead state change and the lender events of the spec with their `data` details.

interface Written {
  api: string;
  event: string;
  subject_id: string;
  test: number;
  detail: Record<string, any>;
}

async function eventsOf(organisationId: string): Promise<Written[]> {
  const { results } = await inData.prepare("select api, event, subject_id, test, detail from events where organisation_id = ? order by created_at, rowid")
    .bind(organisationId)
    .all<any>();
  return results.map((r) => ({ ...r, detail: JSON.parse(r.detail) }));
}

const names = (events: Written[]) => events.map((e) => e.event);

async function dealsOf(leadId: string) {
  const { results } = await inData.prepare("select ref, lender_organisation_id from deals where lead_id = ?").bind(leadId).all<any>();
  return results as { ref: string; lender_organisation_id: string }[];
}

describe("events written by the API", () => {
  it("a live lead's life: submitted, matched, offers_available, offer_accepted, funded; the lender's deal.created, deal.updated {update}, offer.accepted {offer}", async () => {
    const panel = await twoLenderPanel();
    const partner = await partnerWithKeys();
    // Endpoints registered before anything happens receive exactly what is written.
    const partnerHooks = receiverBucket();
    const lenderHooks = receiverBucket();
    await register("partner", partner.live.key, { url: partnerHooks.url(), payload: "reference" });
    await register("lender", panel.keys.a.live, { url: lenderHooks.url(), payload: "reference" });

    const { lead } = await submittedLead(partner.live.key);
    const deals = await dealsOf(lead.id);
    const refA = deals.find((d) => d.lender_organisation_id === panel.a.id)!.ref;
    expect(names(await eventsOf(partner.organisation.id))).toEqual(["lead.submitted", "lead.matched"]);
    for (const lender of [panel.a, panel.b]) {
      const [created] = await eventsOf(lender.id);
      expect(created).toMatchObject({ api: "lender", event: "deal.created", test: 0, detail: {} });
    }
    expect(await eventsOf(panel.c.id)).toEqual([]);

    expect((await call("POST", `/v1/deals/${refA}/status`, { key: panel.keys.a.live, body: { status: "in_review" } })).status).toBe(200);
    const offer = await makeOffer(panel.keys.a.live, refA, firmOffer());
    // A lender's own message to the client fires nothing: message.created is for the client's replies (hub).
    expect((await call("POST", `/v1/deals/${refA}/messages`, { key: panel.keys.a.live, body: { body: "Please send statements" } })).status).toBe(201);
    const accepted = await call("POST", `/partner/v1/leads/${lead.id}/offers/${offer.id}/acceptance`, { key: partner.live.key });
    expect(accepted.status).toBe(200);
    const funded = await call("POST", `/v1/deals/${refA}/status`, { key: panel.keys.a.live, body: { status: "funded", funded_amount: 40_000 } });
    expect(funded.status).toBe(200);

    const partnerEvents = await eventsOf(partner.organisation.id);
    expect(names(partnerEvents)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available", "lead.offer_accepted", "lead.funded"]);
    // `state` in the detail is the lead's state once the write that fired the event committed.
    expect(partnerEvents.map((e) => e.detail.state)).toEqual(["matched", "matched", "offers_available", "offer_accepted", "funded"]);
    for (const e of partnerEvents) expect(e).toMatchObject({ api: "partner", subject_id: lead.id, detail: { reference: lead.reference } });
    expect(partnerEvents[3].detail.offer).toMatchObject({ id: offer.id, state: "accepted", amount: 40_000 });
    expect(partnerEvents[4].detail.funding_outcome).toEqual({ funded_at: expect.any(String), funded_amount: 40_000 });

    const lenderEvents = await eventsOf(panel.a.id);
    expect(lenderEvents.map((e) => [e.event, e.subject_id])).toEqual([
      ["deal.created", refA],
      ["deal.updated", refA],
      ["deal.updated", refA],
      ["offer.accepted", refA],
      ["deal.updated", refA],
    ]);
    expect(lenderEvents.map((e) => e.detail.update ?? null)).toEqual([
      null,
      { status: "in_review", reason: null, funded_amount: null },
      { status: "offer_made", reason: null, funded_amount: null },
      null,
      { status: "funded", reason: null, funded_amount: 40_000 },
    ]);
    expect(lenderEvents[3].detail.offer).toMatchObject({ id: offer.id, status: "accepted", amount: 40_000 });
    expect(names(lenderEvents)).not.toContain("message.created");
    // The other lender's deal saw the acceptance of a competitor's offer as nothing of its own.
    expect(names(await eventsOf(panel.b.id))).toEqual(["deal.created"]);

    // And the endpoints receive exactly these, with reference payloads holding the event's own fields.
    await consume((await dispatch()).deliveryIds);
    const partnerBodies = (await partnerHooks.records()).map((r) => JSON.parse(r.body));
    expect(partnerBodies.map((b) => b.event).sort()).toEqual(names(partnerEvents).sort());
    const fundedBody = partnerBodies.find((b) => b.event === "lead.funded");
    expect(fundedBody.data).toEqual({ lead_id: lead.id, reference: lead.reference, state: "funded", funding_outcome: partnerEvents[4].detail.funding_outcome, payload_mode: "reference" });
    const lenderBodies = (await lenderHooks.records()).map((r) => JSON.parse(r.body));
    expect(lenderBodies.map((b) => b.event).sort()).toEqual(names(lenderEvents).sort());
    const offerBody = lenderBodies.find((b) => b.event === "offer.accepted");
    expect(offerBody.data).toEqual({ reference: refA, ref: refA, test: false, offer: lenderEvents[3].detail.offer, payload_mode: "reference" });
  });

  it("a live lead every lender declines: deal.updated {update} with the reason per lender, lead.declined once, after the last decline", async () => {
    const panel = await twoLenderPanel();
    const partner = await partnerWithKeys();
    const { lead } = await submittedLead(partner.live.key);
    const deals = await dealsOf(lead.id);
    const refOf = (id: string) => deals.find((d) => d.lender_organisation_id === id)!.ref;

    await call("POST", `/v1/deals/${refOf(panel.a.id)}/status`, { key: panel.keys.a.live, body: { status: "declined", reason: "affordability" } });
    expect(names(await eventsOf(partner.organisation.id))).toEqual(["lead.submitted", "lead.matched"]);
    await call("POST", `/v1/deals/${refOf(panel.b.id)}/status`, { key: panel.keys.b.live, body: { status: "declined", reason: "sector" } });
    expect(names(await eventsOf(partner.organisation.id))).toEqual(["lead.submitted", "lead.matched", "lead.declined"]);

    const [, updateA] = await eventsOf(panel.a.id);
    expect(updateA).toMatchObject({ event: "deal.updated", detail: { update: { status: "declined", reason: "affordability", funded_amount: null, reasons: [{ code: "other", detail: "affordability" }] } } });
    const [, updateB] = await eventsOf(panel.b.id);
    expect(updateB).toMatchObject({ event: "deal.updated", detail: { update: { status: "declined", reason: "sector", funded_amount: null } } });
  });

  it("tells the partner what each routed option decided, anonymised: a provider name planted in a lender's note is nowhere the partner reads (API, webhook bodies, portal page)", async () => {
    const panel = await twoLenderPanel();
    const partner = await partnerWithKeys();
    const fullHook = receiverBucket();
    const referenceHook = receiverBucket();
    await register("partner", partner.live.key, { url: fullHook.url() });
    await register("partner", partner.live.key, { url: referenceHook.url(), payload: "reference" });
    const { lead } = await submittedLead(partner.live.key);
    const deals = await dealsOf(lead.id);
    const refOf = (id: string) => deals.find((d) => d.lender_organisation_id === id)!.ref;
    // Routing order numbers the options: the partner learns "Option 1/2", never which lender is which.
    const order = (await env.DB.prepare("select lender_organisation_id from deals where lead_id = ? order by created_at, rowid").bind(lead.id).all<any>()).results.map((r) => r.lender_organisation_id);
    const optionOf = (lenderId: string) => `Option ${order.indexOf(lenderId) + 1}`;

    const planted = ["Lender A", "Lender B", "LA-REF-7731", "Lender B credit policy"];
    const declineA = await call("POST", `/v1/deals/${refOf(panel.a.id)}/status`, {
      key: panel.keys.a.live,
      body: {
        status: "declined",
        reasons: [
          { code: "adverse_credit", detail: "Lender A scorecard LA-REF-7731" },
          { code: "trading_history_too_short", detail: "Needs 12 months of filed accounts", shareable: true },
        ],
      },
    });
    expect(declineA.status).toBe(200);
    const midway = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(midway.body.outcomes.find((o: any) => o.option === optionOf(panel.b.id))).toMatchObject({ outcome: "pending", reasons: [] });
    // The deprecated free text: read as `other`, never shown to the partner.
    expect((await call("POST", `/v1/deals/${refOf(panel.b.id)}/status`, { key: panel.keys.b.live, body: { status: "declined", reason: "Lender B credit policy" } })).status).toBe(200);

    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.state).toBe("declined");
    const outcomes = [
      {
        option: optionOf(panel.a.id),
        product_family: "business_loan",
        outcome: "declined",
        reasons: [
          { code: "adverse_credit", label: "Adverse credit history", detail: null },
          { code: "trading_history_too_short", label: "The business has not been trading long enough", detail: "Needs 12 months of filed accounts" },
        ],
        at: expect.any(String),
      },
      { option: optionOf(panel.b.id), product_family: "business_loan", outcome: "declined", reasons: [{ code: "other", label: "Another reason", detail: null }], at: expect.any(String) },
    ].sort((x, y) => x.option.localeCompare(y.option));
    expect(read.body.outcomes).toEqual(outcomes);

    const declined = (await eventsOf(partner.organisation.id)).find((e) => e.event === "lead.declined")!;
    expect(declined.detail).toEqual({ reference: lead.reference, state: "declined", outcomes });

    await consume((await dispatch()).deliveryIds);
    const bodies = [...(await fullHook.records()), ...(await referenceHook.records())].map((r) => r.body);
    const declinedBodies = bodies.map((b) => JSON.parse(b)).filter((b) => b.event === "lead.declined");
    expect(declinedBodies.map((b) => b.data.payload_mode).sort()).toEqual(["full", "reference"]);
    for (const body of declinedBodies) expect(body.data.outcomes).toEqual(outcomes);

    const session = await liveSession(partner.organisation.id);
    const page = (await portal("GET", `/leads/${lead.id}`, { session })).text;
    expect(page).toContain(`data-option="${optionOf(panel.a.id)}" data-outcome="declined"`);
    expect(page).toContain("Adverse credit history");
    expect(page).toContain("Needs 12 months of filed accounts");
    const partnerReads = [
      JSON.stringify(read.body),
      JSON.stringify((await call("GET", "/partner/v1/leads", { key: partner.live.key })).body),
      JSON.stringify((await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: partner.live.key })).body),
      ...bodies,
      page,
    ];
    for (const text of partnerReads) for (const secret of planted) expect(text).not.toContain(secret);
  });

  it("a live lead nothing matches: lead.submitted then lead.out_of_scope, and no deal event", async () => {
    const panel = await twoLenderPanel();
    const partner = await partnerWithKeys();
    const { lead } = await submittedLead(partner.live.key, { ...completeUkLead(), funding: { amount: 5_000, purpose: "working_capital" } });
    const events = await eventsOf(partner.organisation.id);
    expect(names(events)).toEqual(["lead.submitted", "lead.out_of_scope"]);
    expect(events[1]).toMatchObject({ subject_id: lead.id, detail: { state: "out_of_scope" } });
    for (const lender of [panel.a, panel.b, panel.c]) expect(await eventsOf(lender.id)).toEqual([]);
  });

  it("a sandbox lead through the sandbox helper: every state change has its event, and no lender hears of it", async () => {
    const panel = await twoLenderPanel();
    const partner = await partnerWithKeys();
    const { lead } = await submittedLead(partner.sandbox.key);
    const offers = await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: partner.sandbox.key });
    await call("POST", `/partner/v1/leads/${lead.id}/offers/${offers.body.offers[0].id}/acceptance`, { key: partner.sandbox.key });
    const funded = await call("POST", `/partner/v1/sandbox/leads/${lead.id}/simulate`, { key: partner.sandbox.key, body: { event: "fund" } });
    expect(funded.status).toBe(200);
    expect(names(await eventsOf(partner.organisation.id))).toEqual(["lead.submitted", "lead.matched", "lead.offers_available", "lead.offer_accepted", "lead.funded"]);

    const other = await submittedLead(partner.sandbox.key);
    expect((await call("POST", `/partner/v1/sandbox/leads/${other.lead.id}/simulate`, { key: partner.sandbox.key, body: { event: "decline" } })).status).toBe(200);
    expect(names((await eventsOf(partner.organisation.id)).filter((e) => e.subject_id === other.lead.id))).toEqual([
      "lead.submitted",
      "lead.matched",
      "lead.offers_available",
      "lead.declined",
    ]);
    for (const lender of [panel.a, panel.b, panel.c]) expect(await eventsOf(lender.id)).toEqual([]);
  });

  it("a test deal fires deal.created marked test", async () => {
    const { a, keys } = await twoLenderPanel();
    const res = await call("POST", "/v1/test/deals", { key: keys.a.sandbox, body: {}, host: SANDBOX });
    expect(res.status).toBe(201);
    const events = await eventsOf(a.id);
    expect(events).toEqual([{ api: "lender", event: "deal.created", subject_id: res.body.ref, test: 1, detail: {} }]);
  });
});

describe("which endpoints receive which deals (host kind)", () => {
  it("a lender endpoint registered on the sandbox host receives the sandbox test deals and never a live deal", async () => {
    const panel = await twoLenderPanel();
    const sandboxHook = receiverBucket();
    const sandboxEndpoint = await register("lender", panel.keys.a.sandbox, { url: sandboxHook.url() }, SANDBOX);
    expect(sandboxEndpoint).toMatchObject({ host: "sandbox", environment: "sandbox" });
    await dispatch(); // earlier events of other tests are not this endpoint's concern

    const testDeal = await call("POST", "/v1/test/deals", { key: panel.keys.a.sandbox, body: {}, host: SANDBOX });
    expect(testDeal.status).toBe(201);
    const partner = await partnerWithKeys();
    const { lead } = await submittedLead(partner.live.key); // routes live deals to A and B
    const liveTestDeal = await call("POST", "/v1/test/deals", { key: panel.keys.a.live, body: {} });
    expect(liveTestDeal.status).toBe(201);

    await consume((await dispatch()).deliveryIds);
    const received = (await sandboxHook.records()).map((r) => JSON.parse(r.body));
    expect(received.map((b) => [b.event, b.data.ref, b.data.test, b.environment])).toEqual([["deal.created", testDeal.body.ref, true, "sandbox"]]);
    expect((await dealsOf(lead.id)).length).toBe(2);
  });

  it("a lender endpoint registered on the production host receives every deal of its environment: routed deals and test deals", async () => {
    const panel = await twoLenderPanel();
    const liveHook = receiverBucket();
    const liveEndpoint = await register("lender", panel.keys.a.live, { url: liveHook.url() });
    expect(liveEndpoint).toMatchObject({ host: "production", environment: "live" });
    // A sandbox key on the production host: a sandbox endpoint that also takes every sandbox deal.
    const sandboxOnProductionHook = receiverBucket();
    expect(await register("lender", panel.keys.a.sandbox, { url: sandboxOnProductionHook.url() })).toMatchObject({ host: "production", environment: "sandbox" });

    const partner = await partnerWithKeys();
    const { lead } = await submittedLead(partner.live.key);
    const routedRef = (await dealsOf(lead.id)).find((d) => d.lender_organisation_id === panel.a.id)!.ref;
    const liveTestDeal = await call("POST", "/v1/test/deals", { key: panel.keys.a.live, body: {} });
    const sandboxTestDeal = await call("POST", "/v1/test/deals", { key: panel.keys.a.sandbox, body: {} });

    await consume((await dispatch()).deliveryIds);
    const live = (await liveHook.records()).map((r) => JSON.parse(r.body));
    expect(live.map((b) => [b.data.ref, b.data.test]).sort()).toEqual(
      [
        [routedRef, false],
        [liveTestDeal.body.ref, true],
      ].sort(),
    );
    expect(live.every((b) => b.environment === "live" && b.livemode === true)).toBe(true);
    const sandbox = (await sandboxOnProductionHook.records()).map((r) => JSON.parse(r.body));
    expect(sandbox.map((b) => b.data.ref)).toEqual([sandboxTestDeal.body.ref]);
  });

  it("a partner endpoint on the sandbox host receives sandbox lead events; one on the production host with a live key receives live ones", async () => {
    await twoLenderPanel();
    const partner = await partnerWithKeys();
    const sandboxHook = receiverBucket();
    const liveHook = receiverBucket();
    await register("partner", partner.sandbox.key, { url: sandboxHook.url(), events: ["lead.submitted"] }, SANDBOX);
    await register("partner", partner.live.key, { url: liveHook.url(), events: ["lead.submitted"] });
    const sandboxLead = await submittedLead(partner.sandbox.key);
    const liveLead = await submittedLead(partner.live.key);
    await consume((await dispatch()).deliveryIds);
    expect((await sandboxHook.records()).map((r) => JSON.parse(r.body).data.lead_id)).toEqual([sandboxLead.lead.id]);
    expect((await liveHook.records()).map((r) => JSON.parse(r.body).data.lead_id)).toEqual([liveLead.lead.id]);
  });
});
