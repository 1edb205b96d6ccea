import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { eventsFor, twoLenderPanel } from "../routing/helpers";
import { completeUkLead, createLead, person } from "./helpers";

const renew = (key: string, id: string, headers: Record<string, string> = {}) => call("POST", `/partner/v1/leads/${id}/renewals`, { key, headers });

/** A sandbox lead walked to `funded` through the public API. */
async function fundedLead(key: string) {
  const lead = await createLead(key, { ...completeUkLead(), significant_persons: [person()] });
  expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key })).body.state).toBe("offers_available");
  const offers = (await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key })).body.offers;
  expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offers[0].id}/acceptance`, { key })).status).toBe(200);
  expect((await call("POST", `/partner/v1/sandbox/leads/${lead.id}/simulate`, { key, body: { event: "fund" } })).body.state).toBe("funded");
  return (await call("GET", `/partner/v1/leads/${lead.id}`, { key })).body;
}

describe("POST /partner/v1/leads/{id}/renewals", () => {
  it("opens a draft prefilled from the funded lead, carrying renewal_of, listed on the original", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const original = await fundedLead(sandbox.key);
    const eventsBefore = await eventsFor(original.id);

    const res = await renew(sandbox.key, original.id);
    expect(res.status).toBe(201);
    const renewal = res.body;
    expect(res.headers.get("Location")).toBe(`http://api.test/partner/v1/leads/${renewal.id}`);
    expect(renewal.id).not.toBe(original.id);
    expect(renewal.reference).not.toBe(original.reference);
    expect(renewal).toMatchObject({
      state: "draft",
      renewal_of: original.id,
      environment: "sandbox",
      country: "UK",
      partner_reference: original.partner_reference,
      channel: original.channel,
      business: original.business,
      contact: original.contact,
      funding: original.funding,
      trading: original.trading,
      significant_persons: original.significant_persons,
      // Not carried: consent is asked again, and nothing of the funded application (documents, offers, outcome) comes along.
      consent: { obtained: null, obtained_at: null, soft_credit_search: null, text_version: null, withdrawn_at: null, receipt: null },
      documents: [],
      offers: [],
      funding_outcome: null,
      matched_options: null,
      submitted_at: null,
      renewals: [],
      timeline: [{ event: "lead.created", occurred_at: renewal.created_at }],
    });
    expect(renewal.significant_persons).toHaveLength(1);

    // The GET answers the same lead; the original lists it; neither gained an event (lead creation fires none).
    expect((await call("GET", `/partner/v1/leads/${renewal.id}`, { key: sandbox.key })).body).toEqual(renewal);
    const again = (await call("GET", `/partner/v1/leads/${original.id}`, { key: sandbox.key })).body;
    expect(again.renewal_of).toBeNull();
    expect(again.renewals).toEqual([{ id: renewal.id, reference: renewal.reference, state: "draft", created_at: renewal.created_at }]);
    expect(await eventsFor(original.id)).toEqual(eventsBefore);
    expect(await eventsFor(renewal.id)).toEqual([]);

    // The list shows the link too.
    const list = (await call("GET", "/partner/v1/leads", { key: sandbox.key })).body.leads;
    expect(list.find((l: { id: string }) => l.id === renewal.id).renewal_of).toBe(original.id);
    expect(list.find((l: { id: string }) => l.id === original.id).renewal_of).toBeNull();

    // The renewal is an ordinary draft: it can be corrected and submitted, and a second renewal lists after the first.
    const patched = await call("PATCH", `/partner/v1/leads/${renewal.id}`, { key: sandbox.key, body: { funding: { amount: 60_000 }, consent: completeUkLead().consent } });
    expect(patched.status).toBe(200);
    expect(patched.body.funding.amount).toBe(60_000);
    expect((await call("POST", `/partner/v1/leads/${renewal.id}/submit`, { key: sandbox.key })).status).toBe(200);
    const second = await renew(sandbox.key, original.id);
    expect(second.status).toBe(201);
    const listed = (await call("GET", `/partner/v1/leads/${original.id}`, { key: sandbox.key })).body.renewals;
    expect(listed.map((r: { id: string }) => r.id)).toEqual([renewal.id, second.body.id]);
    expect(listed[0].state).not.toBe("draft");
  });

  it("refuses a lead that is not funded with 409 lead_not_funded, opening nothing", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const draft = await createLead(sandbox.key);
    const res = await renew(sandbox.key, draft.id);
    expectProblem(res, 409, "lead_not_funded");
    expect(res.body.detail).toContain("draft");
    const submitted = await createLead(sandbox.key);
    await call("POST", `/partner/v1/leads/${submitted.id}/submit`, { key: sandbox.key });
    expectProblem(await renew(sandbox.key, submitted.id), 409, "lead_not_funded");
    expect((await call("GET", "/partner/v1/leads", { key: sandbox.key })).body.leads).toHaveLength(2);
  });

  it("is 404 for an unknown lead, another account's and the other environment's", async () => {
    await twoLenderPanel();
    const owner = await partnerWithKeys();
    const stranger = await partnerWithKeys();
    const original = await fundedLead(owner.sandbox.key);
    expectProblem(await renew(owner.sandbox.key, crypto.randomUUID()), 404, "not_found");
    expectProblem(await renew(stranger.sandbox.key, original.id), 404, "not_found");
    expectProblem(await renew(owner.live.key, original.id), 404, "not_found");
    expect((await call("GET", `/partner/v1/leads/${original.id}`, { key: owner.sandbox.key })).body.renewals).toEqual([]);
    // A stranger's renewal could never be listed on the owner's lead either: the list is scoped in SQL.
    expect((await call("GET", "/partner/v1/leads", { key: stranger.sandbox.key })).body.leads).toEqual([]);
  });

  it("opens one renewal per Idempotency-Key: a retry answers the first again", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const original = await fundedLead(sandbox.key);
    const first = await renew(sandbox.key, original.id, { "Idempotency-Key": "renew-1" });
    const retry = await renew(sandbox.key, original.id, { "Idempotency-Key": "renew-1" });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.body.id).toBe(first.body.id);
    expect(retry.headers.get("Location")).toBe(first.headers.get("Location"));
    expect((await call("GET", `/partner/v1/leads/${original.id}`, { key: sandbox.key })).body.renewals).toHaveLength(1);
  });

  it("is in the partner OpenAPI document with its 201, 404 and 409", async () => {
    const { body } = await call("GET", "/partner/v1/openapi.json");
    const operation = body.paths["/leads/{id}/renewals"].post;
    expect(operation.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Lead" });
    expect(operation.responses["201"].headers.Location).toBeDefined();
    expect(operation.responses["409"].description).toContain("lead_not_funded");
    expect(operation.responses["404"].description).toContain("not_found");
    expect(body.components.schemas.Lead.properties).toHaveProperty("renewal_of");
    expect(body.components.schemas.Lead.properties).toHaveProperty("renewals");
  });
});
