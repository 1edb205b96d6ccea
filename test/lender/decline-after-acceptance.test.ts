import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { eventsFor } from "../routing/helpers";
import { firmOffer, makeOffer, routedLead } from "./helpers";

describe("the accepted lender declines", () => {
  it("declines the lead: acceptance closed every other offer, so no lender is left to fund it", async () => {
    const { keys, refA, refB, partner, lead } = await routedLead();
    const offerA = await makeOffer(keys.a.live, refA, firmOffer());
    await makeOffer(keys.b.live, refB, firmOffer({ amount: 38_000 }));
    expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offerA.id}/acceptance`, { key: partner.live.key })).status).toBe(200);

    const declined = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "declined", reason: "affordability" } });
    expect(declined.status).toBe(200);

    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.state).toBe("declined");
    const leadEvents = (await eventsFor(lead.id)).filter((e) => e.event === "lead.declined");
    expect(leadEvents).toHaveLength(1);
    expect(leadEvents[0].detail).toMatchObject({ state: "declined", reference: lead.reference });
  });

  it("keeps the lead open while an unaccepted lender declines and another still can fund", async () => {
    const { keys, refA, refB, partner, lead } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer());
    expect((await call("POST", `/v1/deals/${refB}/status`, { key: keys.b.live, body: { status: "declined" } })).status).toBe(200);
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.state).toBe("offers_available");
    expect((await eventsFor(lead.id)).filter((e) => e.event === "lead.declined")).toHaveLength(0);
  });
});
