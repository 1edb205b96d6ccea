import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { routedLead } from "../lender/helpers";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "./support/webhooks";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

// `full`: data is exactly what the GET of that API returns, plus the event's own detail.
describe("full payloads", () => {
  it("carry the deal exactly as GET /v1/deals/{ref} returns it", async () => {
    const bucket = receiverBucket();
    const { keys, refA } = await routedLead();
    await register("lender", keys.a.live, { url: bucket.url(), events: ["deal.created", "deal.updated"] });
    // deal.created was written before the endpoint existed; a status change is written after.
    const status = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "in_review" } });
    expect(status.status).toBe(200);

    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const received = (await bucket.records()).map((r) => JSON.parse(r.body));
    const updated = received.find((b) => b.event === "deal.updated");
    expect(updated).toBeDefined();

    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    const { update, payload_mode, ...subject } = updated.data;
    expect(payload_mode).toBe("full");
    expect(update).toMatchObject({ status: "in_review" });
    expect(subject).toEqual(deal.body);
  });

  it("carry the lead exactly as GET /partner/v1/leads/{id} returns it", async () => {
    const bucket = receiverBucket();
    const routed = await routedLead();
    await register("partner", routed.partner.live.key, { url: bucket.url(), events: ["lead.offers_available"] });
    const offer = await call("POST", `/v1/deals/${routed.refA}/offers`, {
      key: routed.keys.a.live,
      body: { maturity: "firm", amount: 40_000, kind: "term_loan", annual_rate_pct: 11.5, term_months: 24, fees: 800, total_repayment: 45_600, expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString() },
    });
    expect(offer.status).toBe(201);

    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const delivery = (await bucket.records()).map((r) => JSON.parse(r.body)).find((b) => b.event === "lead.offers_available");
    expect(delivery).toBeDefined();
    const lead = await call("GET", `/partner/v1/leads/${routed.lead.id}`, { key: routed.partner.live.key });
    const { payload_mode, lead_id, state: _state, ...subject } = delivery.data;
    expect(payload_mode).toBe("full");
    expect(lead_id).toBe(routed.lead.id);
    expect({ ...subject, state: lead.body.state }).toEqual(lead.body);
  });
});
