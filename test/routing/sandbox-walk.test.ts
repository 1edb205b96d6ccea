import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead } from "../leads/helpers";
import { eventsFor, twoLenderPanel } from "./helpers";

const simulate = (key: string, id: string, event: string) => call("POST", `/partner/v1/sandbox/leads/${id}/simulate`, { key, body: { event } });
const readLead = async (key: string, id: string) => (await call("GET", `/partner/v1/leads/${id}`, { key })).body;
const readOffers = async (key: string, id: string) => {
  const res = await call("GET", `/partner/v1/leads/${id}/offers`, { key });
  expect(res.status).toBe(200);
  return res.body;
};
const terms = (offers: any[]) =>
  offers.map(({ label, amount, currency, annual_rate_pct, factor_rate, term_months, fees, total_repayment }) => ({ label, amount, currency, annual_rate_pct, factor_rate, term_months, fees, total_repayment }));

/** A sandbox partner walks one lead through every state with the HTTP API alone. */
describe("the sandbox walk through every lead state", () => {
  it("draft → submitted → matched → offers_available → (fresh offers) → offer_accepted → funded", async () => {
    const { keys } = await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();

    const draft = await createLead(sandbox.key);
    expect(draft.state).toBe("draft");
    expect((await readLead(sandbox.key, draft.id)).state).toBe("draft");

    const submit = await call("POST", `/partner/v1/leads/${draft.id}/submit`, { key: sandbox.key });
    expect(submit.status).toBe(200);
    expect(submit.body).toMatchObject({ state: "offers_available", matched_options: 2, already_submitted: false });
    expect((await eventsFor(draft.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available"]);

    // Re-reading the offers is stable: the same ids and terms every time, the same on the Lead.
    const first = await readOffers(sandbox.key, draft.id);
    expect(first).toMatchObject({ lead_id: draft.id, simulated: true });
    expect(first.offers).toHaveLength(2);
    expect(await readOffers(sandbox.key, draft.id)).toEqual(first);
    expect((await readLead(sandbox.key, draft.id)).offers).toEqual(first.offers);

    // Fresh simulated offers replace the current ones with the same terms (deterministic for the lead).
    const fresh = await simulate(sandbox.key, draft.id, "offers");
    expect(fresh.status).toBe(200);
    expect(fresh.body.state).toBe("offers_available");
    const second = await readOffers(sandbox.key, draft.id);
    expect(second.offers.map((o: any) => o.id)).not.toEqual(first.offers.map((o: any) => o.id));
    expect(terms(second.offers)).toEqual(terms(first.offers));
    expect(await readOffers(sandbox.key, draft.id)).toEqual(second);

    const chosen = second.offers[0];
    const accepted = await call("POST", `/partner/v1/leads/${draft.id}/offers/${chosen.id}/acceptance`, { key: sandbox.key });
    expect(accepted.body).toEqual({ lead_id: draft.id, offer_id: chosen.id, state: "accepted", simulated: true });
    expect((await readLead(sandbox.key, draft.id)).state).toBe("offer_accepted");

    const funded = await simulate(sandbox.key, draft.id, "fund");
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ state: "funded", funding_outcome: { funded_at: expect.any(String), funded_amount: chosen.amount } });
    expect((await readLead(sandbox.key, draft.id)).state).toBe("funded");
    expect((await eventsFor(draft.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available", "lead.offer_accepted", "lead.funded"]);

    // No lender, sandbox or live, was handed anything.
    for (const lender of [keys.a, keys.b, keys.c]) {
      for (const key of [lender.sandbox, lender.live]) {
        const deals = await call("GET", "/v1/deals", { key });
        expect(deals.status).toBe(200);
        expect(deals.body.deals).toEqual([]);
      }
    }
  });

  it("offers_available → offer_accepted → declined, then nothing more", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    const offer = (await readOffers(sandbox.key, lead.id)).offers[0];
    await call("POST", `/partner/v1/leads/${lead.id}/offers/${offer.id}/acceptance`, { key: sandbox.key });
    const declined = await simulate(sandbox.key, lead.id, "decline");
    expect(declined.status).toBe(200);
    expect(declined.body.state).toBe("declined");
    expect((await eventsFor(lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available", "lead.offer_accepted", "lead.declined"]);
    for (const event of ["offers", "decline", "fund"]) expectProblem(await simulate(sandbox.key, lead.id, event), 409, "invalid_transition");
  });

  it("draft → submitted → out_of_scope, reasons kept, and the helper cannot revive it", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { ...completeUkLead(), funding: { amount: 5_000, purpose: "working_capital" } });
    const submit = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expect(submit.body).toMatchObject({ state: "out_of_scope", matched_options: 0, options: [] });
    const read = await readLead(sandbox.key, lead.id);
    expect(read.out_of_scope_reasons).toEqual([{ code: "amount_below_minimum", detail: expect.stringContaining("10,000 GBP") }]);
    expect((await readOffers(sandbox.key, lead.id)).offers).toEqual([]);
    for (const event of ["offers", "decline", "fund"]) expectProblem(await simulate(sandbox.key, lead.id, event), 409, "invalid_transition");
    expect((await eventsFor(lead.id)).map((e) => e.event)).toEqual(["lead.submitted", "lead.out_of_scope"]);
  });
});
