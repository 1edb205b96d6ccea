import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, http, newLender } from "./client";
import { startReceiver } from "./receiver";

// A sandbox lender sees every lender-API event on a test deal without a human, over HTTP against
// `wrangler dev`: the path docs/lender-api.md ("Sandbox life cycle of a test deal") describes.
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe("a test deal walked through its whole life by the sandbox business", () => {
  it("fires deal.created, message.created, request.fulfilled, deal.updated, offer.accepted, deal.account_submitted and deal.agreement_signed to the lender's webhook", async () => {
    const lender = await newLender();
    const headers = { "X-API-Key": lender.sandbox.key };
    const v1 = `${baseUrl()}/v1`;
    const hook = await http("POST", `${v1}/webhooks`, { headers, body: { url: receiver.url } });
    expect(hook.status).toBe(201);

    const deal = await http("POST", `${v1}/test/deals`, { headers });
    expect(deal.status).toBe(201);
    const ref: string = deal.body.ref;
    const simulate = (event: string) => http("POST", `${v1}/test/deals/${ref}/simulate`, { headers, body: { event } });

    expect((await simulate("message.created")).status).toBe(200);

    expect((await simulate("request.fulfilled")).body.error.code).toBe("no_open_request");
    const request = await http("POST", `${v1}/deals/${ref}/requests`, { headers, body: { item_type: "bank_statements_3m" } });
    expect(request.status).toBe(200);
    expect((await simulate("request.fulfilled")).status).toBe(200);
    const files = await http("GET", `${v1}/deals/${ref}/requests/${request.body.request.id}/files`, { headers });
    expect(files.body.files).toHaveLength(1);
    // The signed link serves the very PDF the business uploaded.
    const file = await fetch(files.body.files[0].url);
    expect(file.status).toBe(200);
    expect((await file.text()).startsWith("%PDF-")).toBe(true);

    const early = await simulate("deal.account_submitted");
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("invalid_transition");

    const offer = await http("POST", `${v1}/deals/${ref}/offers`, {
      headers,
      body: { maturity: "firm", amount: 40000, kind: "business_loan", annual_rate_pct: 11.5, term_months: 24, fees: 800, total_repayment: 45600 },
    });
    expect(offer.status).toBe(201);
    const accepted = await simulate("offer.accepted");
    expect(accepted.body).toMatchObject({ status: "offer_accepted" });
    expect((await simulate("deal.account_submitted")).body.completion).toMatchObject({ account_submitted: true });
    const pdf = await fetch(`${v1}/deals/${ref}/agreement`, { method: "PUT", headers: { ...headers, "Content-Type": "application/pdf" }, body: "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n" });
    expect(pdf.status).toBe(200);
    expect((await simulate("deal.agreement_signed")).body.completion).toMatchObject({ signed: true });

    const expected = ["deal.created", "message.created", "request.fulfilled", "deal.updated", "offer.accepted", "deal.account_submitted", "deal.agreement_signed"];
    for (const event of expected) {
      const delivery = await receiver.waitFor((r) => r.headers["x-service-event"] === event && r.raw.includes(ref));
      expect(JSON.parse(delivery.raw)).toMatchObject({ event, environment: "sandbox", livemode: false });
    }
    const feed = await http("GET", `${v1}/events?limit=50`, { headers });
    expect(feed.body.events.filter((e: any) => e.subject.id === ref).map((e: any) => e.event).sort()).toEqual([...expected].sort());
  });
});
