import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem } from "../helpers/seed";
import { eventsFor, submittedLead, twoLenderPanel } from "../routing/helpers";
import { partnerWithKeys } from "../helpers/seed";
import { firmOffer, makeOffer, routedLead } from "./helpers";
import { inData } from "../helpers/data-db";

const accept = (key: string, leadId: string, offerId: string) => call("POST", `/partner/v1/leads/${leadId}/offers/${offerId}/acceptance`, { key });

const decline = (key: string, leadId: string, offerId: string, body: unknown = { reason_code: "found_elsewhere" }) =>
  call("POST", `/partner/v1/leads/${leadId}/offers/${offerId}/decline`, { key, body });

describe("the business declines an offer (issue 41)", () => {
  it("declines once under concurrent calls: the offer is declined, the lender hears offer.declined and the partner lead.offer_declined; acceptance is then 409; every offer declined says so", async () => {
    const { keys, refA, refB, partner, lead, a } = await routedLead();
    const offerA = await makeOffer(keys.a.live, refA, firmOffer());
    const offerB = await makeOffer(keys.b.live, refB, firmOffer({ amount: 38_000 }));
    const answers = await Promise.all(Array.from({ length: 3 }, () => decline(partner.live.key, lead.id, offerA.id)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ lead_id: lead.id, all_offers_declined: false, simulated: false, offer: { id: offerA.id, state: "declined", declined: { reason_code: "found_elsewhere", label: "Found funding elsewhere", at: expect.any(String) } } });
    }
    const toLender = (await eventsFor(refA)).filter((e) => e.event === "offer.declined");
    expect(toLender).toHaveLength(1);
    expect(toLender[0]).toMatchObject({ organisation_id: a.id, api: "lender", detail: { offer: { id: offerA.id, status: "declined", declined: { reason_code: "found_elsewhere" } } } });
    const toPartner = (await eventsFor(lead.id)).filter((e) => e.event === "lead.offer_declined");
    expect(toPartner).toHaveLength(1);
    expect(toPartner[0].detail).toMatchObject({ reference: lead.reference, state: "offers_available", all_offers_declined: false, offer: { id: offerA.id, state: "declined" } });
    expect(JSON.stringify(toPartner[0].detail)).not.toMatch(/Lender [AB]/);

    expectProblem(await accept(partner.live.key, lead.id, offerA.id), 409, "offer_not_acceptable");
    const lenderView = await call("GET", `/v1/deals/${refA}/offers`, { key: keys.a.live });
    expect(lenderView.body.offers[0]).toMatchObject({ status: "declined", declined: { reason_code: "found_elsewhere", label: "Found funding elsewhere" } });

    let read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body).toMatchObject({ state: "offers_available", all_offers_declined: false });
    const last = await decline(partner.live.key, lead.id, offerB.id, { reason_code: "no_longer_needed" });
    expect(last.body.all_offers_declined).toBe(true);
    read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.all_offers_declined).toBe(true);
    expect(read.body.offers.map((o: any) => o.state)).toEqual(["declined", "declined"]);
    expect((await eventsFor(lead.id)).filter((e) => e.event === "lead.offer_declined").at(-1)!.detail.all_offers_declined).toBe(true);
  });

  it("refuses what it cannot decline: an unknown code 422, another lead's offer 404, an accepted offer 409, a missing code 400", async () => {
    const { keys, refA, refB, partner, lead } = await routedLead();
    const offerA = await makeOffer(keys.a.live, refA, firmOffer());
    const offerB = await makeOffer(keys.b.live, refB, firmOffer({ amount: 38_000 }));
    const unknown = await decline(partner.live.key, lead.id, offerA.id, { reason_code: "too_expensive" });
    expectProblem(unknown, 422, "unknown_code");
    expect(unknown.body.error.field).toBe("reason_code");
    const missing = await decline(partner.live.key, lead.id, offerA.id, {});
    expectProblem(missing, 400, "invalid_request");
    expect(missing.body.error.field).toBe("reason_code");
    const stranger = await partnerWithKeys();
    expectProblem(await decline(stranger.live.key, lead.id, offerA.id), 404, "not_found");
    expectProblem(await decline(partner.live.key, lead.id, "off_nothing"), 404, "not_found");
    expect((await accept(partner.live.key, lead.id, offerA.id)).status).toBe(200);
    expectProblem(await decline(partner.live.key, lead.id, offerA.id), 409, "invalid_transition");
    expectProblem(await decline(partner.live.key, lead.id, offerB.id), 409, "invalid_transition");
    expect((await eventsFor(refA)).filter((e) => e.event === "offer.declined")).toHaveLength(0);
  });
});

describe("offer acceptance", () => {
  it("hands over exactly once under five concurrent calls, and a repeat answers the accepted state", async () => {
    const { keys, refA, refB, partner, lead, a } = await routedLead();
    const offerA = await makeOffer(keys.a.live, refA, firmOffer());
    const offerB = await makeOffer(keys.b.live, refB, firmOffer({ amount: 38_000 }));
    const answers = await Promise.all(Array.from({ length: 5 }, () => accept(partner.live.key, lead.id, offerA.id)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ lead_id: lead.id, offer_id: offerA.id, state: "accepted", simulated: false });
    }
    const handovers = (await eventsFor(refA)).filter((e) => e.event === "offer.accepted");
    expect(handovers).toHaveLength(1);
    expect(handovers[0]).toMatchObject({ organisation_id: a.id, api: "lender", detail: { offer: { id: offerA.id, status: "accepted", amount: 40_000 } } });
    expect((await eventsFor(lead.id)).filter((e) => e.event === "lead.offer_accepted")).toHaveLength(1);

    const repeat = await accept(partner.live.key, lead.id, offerA.id);
    expect(repeat.status).toBe(200);
    expect(repeat.body.state).toBe("accepted");
    expect((await eventsFor(refA)).filter((e) => e.event === "offer.accepted")).toHaveLength(1);

    const other = await accept(partner.live.key, lead.id, offerB.id);
    expectProblem(other, 409, "offer_not_acceptable");
    expect((await eventsFor(refB)).filter((e) => e.event === "offer.accepted")).toHaveLength(0);

    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.state).toBe("offer_accepted");
    expect(Object.fromEntries(read.body.offers.map((o: any) => [o.id, o.state]))).toEqual({ [offerA.id]: "accepted", [offerB.id]: "closed" });
    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    expect(deal.body.status).toBe("offer_accepted");
    // Once an offer is accepted, the other lender can no longer make one.
    expectProblem(await call("POST", `/v1/deals/${refB}/offers`, { key: keys.b.live, body: firmOffer() }), 409, "invalid_transition");
  });

  it("accepts exactly one of two different offers accepted concurrently, with one handover in all", async () => {
    const { keys, refA, refB, partner, lead } = await routedLead();
    const offerA = await makeOffer(keys.a.live, refA, firmOffer());
    const offerB = await makeOffer(keys.b.live, refB, firmOffer({ amount: 38_000 }));
    const answers = await Promise.all([offerA.id, offerB.id, offerA.id, offerB.id].map((id) => accept(partner.live.key, lead.id, id)));
    const won = answers.filter((r) => r.status === 200);
    expect(new Set(won.map((r) => r.body.offer_id)).size).toBe(1);
    for (const res of answers.filter((r) => r.status !== 200)) expectProblem(res, 409, "offer_not_acceptable");
    const handovers = [...(await eventsFor(refA)), ...(await eventsFor(refB))].filter((e) => e.event === "offer.accepted");
    expect(handovers).toHaveLength(1);
    expect(handovers[0].detail.offer.id).toBe(won[0].body.offer_id);
    expect((await eventsFor(lead.id)).filter((e) => e.event === "lead.offer_accepted")).toHaveLength(1);
  });

  it("refuses an offer of another lead (404), a superseded one and an expired one (409)", async () => {
    const { keys, refA, partner, lead } = await routedLead();
    const first = await makeOffer(keys.a.live, refA, firmOffer());
    await makeOffer(keys.a.live, refA, firmOffer({ amount: 39_000 }));
    expectProblem(await accept(partner.live.key, lead.id, first.id), 409, "offer_not_acceptable");
    expectProblem(await accept(partner.live.key, lead.id, "off_doesnotexist"), 404, "not_found");
    const otherLead = await submittedLead(partner.live.key);
    expectProblem(await accept(partner.live.key, otherLead.lead.id, first.id), 404, "not_found");
    const stranger = await partnerWithKeys();
    expectProblem(await accept(stranger.live.key, lead.id, first.id), 404, "not_found");
    const { env } = await import("cloudflare:workers");
    const current = (await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: partner.live.key })).body.offers[0];
    await inData.prepare("update offers set expires_at = ? where id = ?").bind(new Date(Date.now() - 1000).toISOString(), current.id).run();
    expectProblem(await accept(partner.live.key, lead.id, current.id), 409, "offer_not_acceptable");
  });

  it("accepts sandbox offers as simulated, handing nothing to any lender", async () => {
    const panel = await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const { lead } = await submittedLead(sandbox.key);
    const offers = await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: sandbox.key });
    const res = await accept(sandbox.key, lead.id, offers.body.offers[0].id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lead_id: lead.id, offer_id: offers.body.offers[0].id, state: "accepted", simulated: true });
    const { env } = await import("cloudflare:workers");
    // Counted for the panel's lenders only: other files sharing this runtime's D1 rehearse test deals, whose simulated acceptance is a sandbox offer.accepted of their own lender.
    const lenders = [panel.a.id, panel.b.id, panel.c.id];
    const { results } = await env.DB.prepare("select count(*) as n from events where event = 'offer.accepted' and environment = 'sandbox' and organisation_id in (?, ?, ?)").bind(...lenders).all<any>();
    expect(results[0].n).toBe(0);
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body.state).toBe("offer_accepted");
  });
});

describe("sandbox simulate helper", () => {
  const simulate = (key: string, id: string, event: string) => call("POST", `/partner/v1/sandbox/leads/${id}/simulate`, { key, body: { event } });

  it("walks a sandbox lead to funded with the partner events", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const { lead } = await submittedLead(sandbox.key);
    expectProblem(await simulate(sandbox.key, lead.id, "fund"), 409, "invalid_transition");
    const offers = await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: sandbox.key });
    await accept(sandbox.key, lead.id, offers.body.offers[0].id);
    const funded = await simulate(sandbox.key, lead.id, "fund");
    expect(funded.status).toBe(200);
    expect(funded.body.state).toBe("funded");
    expect(funded.body.funding_outcome).toEqual({ funded_at: expect.any(String), funded_amount: offers.body.offers[0].amount });
    expect((await eventsFor(lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available", "lead.offer_accepted", "lead.funded"]);
    expectProblem(await simulate(sandbox.key, lead.id, "decline"), 409, "invalid_transition");
    expectProblem(await simulate(sandbox.key, lead.id, "offers"), 409, "invalid_transition");
  });

  it("declines a sandbox lead; refuses live keys, unknown events and draft leads", async () => {
    await twoLenderPanel();
    const { sandbox, live } = await partnerWithKeys();
    const { lead } = await submittedLead(sandbox.key);
    const declined = await simulate(sandbox.key, lead.id, "decline");
    expect(declined.body.state).toBe("declined");
    expect(declined.body.offers.every((o: any) => o.state === "closed")).toBe(true);
    expect((await eventsFor(lead.id)).at(-1)!.event).toBe("lead.declined");
    expectProblem(await simulate(live.key, lead.id, "decline"), 403, "environment_mismatch");
    expectProblem(await simulate(sandbox.key, lead.id, "explode"), 400, "invalid_request");
    const draft = await (await import("../leads/helpers")).createLead(sandbox.key);
    expectProblem(await simulate(sandbox.key, draft.id, "offers"), 409, "invalid_transition");
    expectProblem(await simulate(sandbox.key, crypto.randomUUID(), "offers"), 404, "not_found");
  });
});
