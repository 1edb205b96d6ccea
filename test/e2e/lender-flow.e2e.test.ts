import { describe, expect, it } from "vitest";
import { baseUrl, http } from "./client";
import { matchedLead } from "./panel";

describe("a live deal from submit to acceptance, over HTTP", () => {
  it("routes a live lead to the panel lender, who offers; the partner accepts once", async () => {
    const { lender, pkey, lead } = await matchedLead("e2e-loan", { name: "Flow Ltd", company_number: "07654321" }, { first_name: "Grace", last_name: "Hopper", email: "grace@flow.example" });
    const submitted = await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/submit`, { headers: pkey });
    expect(submitted.body.state).toBe("matched");
    expect(JSON.stringify(submitted.body)).not.toContain(lender.org.name);

    const lkey = { "X-API-Key": lender.live.key };
    const deals = await http("GET", `${baseUrl()}/v1/deals?status=new`, { headers: lkey });
    const ref: string = deals.body.deals.find((d: any) => d.business.name === "Flow Ltd").ref;
    const deal = await http("GET", `${baseUrl()}/v1/deals/${ref.toLowerCase()}`, { headers: lkey });
    expect(deal.status).toBe(200);
    expect(deal.headers.get("deprecation")).toBeTruthy();
    expect(deal.body.market.country).toBeDefined();

    expect((await http("POST", `${baseUrl()}/v1/deals/${ref}/status`, { headers: lkey, body: { status: "in_review" } })).status).toBe(200);
    const offer = await http("POST", `${baseUrl()}/v1/deals/${ref}/offers`, {
      headers: lkey,
      body: { maturity: "firm", amount: 40000, kind: "business_loan", annual_rate_pct: 11.5, term_months: 24, fees: 800, total_repayment: 45600, expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString() },
    });
    expect(offer.status).toBe(201);

    const offers = await http("GET", `${baseUrl()}/partner/v1/leads/${lead.body.id}/offers`, { headers: pkey });
    expect(offers.body.simulated).toBe(false);
    const presented = offers.body.offers[0];
    expect(presented).toMatchObject({ state: "presented", amount: 40000 });

    const accepts = await Promise.all(
      [1, 2, 3].map(() => http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/offers/${presented.id}/acceptance`, { headers: pkey })),
    );
    for (const a of accepts) expect(a.body).toMatchObject({ state: "accepted", simulated: false });
    const events = await http("GET", `${baseUrl()}/v1/events?event=offer.accepted`, { headers: lkey });
    expect(events.body.events.filter((e: any) => e.subject.id === ref)).toHaveLength(1);

    const after = await http("GET", `${baseUrl()}/partner/v1/leads/${lead.body.id}`, { headers: pkey });
    expect(after.body.state).toBe("offer_accepted");
  });
});
