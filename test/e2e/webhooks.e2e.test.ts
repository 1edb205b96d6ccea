import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, http, newPartner } from "./client";
import { startReceiver, verifyWithNodeCrypto } from "./receiver";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe("webhooks over HTTP, through the real queue", () => {
  it("delivers a signed lead event that three independent verifiers accept", async () => {
    const { sandbox } = await newPartner();
    const headers = { "X-API-Key": sandbox.key };
    const endpoint = await http("POST", `${baseUrl()}/partner/v1/webhooks`, { headers, body: { url: receiver.url, events: ["lead.submitted"] } });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);

    const lead = await http("POST", `${baseUrl()}/partner/v1/leads`, {
      headers,
      body: {
        country: "GB",
        business: { name: "Hook Ltd", company_number: "01234567", entity_type: "private_limited_company" },
        funding: { amount: 30000, purpose: "working_capital" },
        trading: { monthly_revenue: 25000, tib_months: 40 },
      },
    });
    expect(lead.status).toBe(201);
    expect((await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/submit`, { headers })).status).toBe(200);

    const delivery = await receiver.waitFor((r) => r.headers["x-service-event"] === "lead.submitted" && r.raw.includes(lead.body.id));
    const secret: string = endpoint.body.secret;

    expect(verifyWithNodeCrypto(secret, delivery.raw, delivery.headers)).toEqual({ plain: true, timestamped: true });
    const stripeEvent = Stripe.webhooks.constructEvent(delivery.raw, delivery.headers["x-service-signature-256"], secret) as unknown as { id: string };
    const standard = new Webhook(secret).verify(delivery.raw, {
      "webhook-id": delivery.headers["webhook-id"],
      "webhook-timestamp": delivery.headers["webhook-timestamp"],
      "webhook-signature": delivery.headers["webhook-signature"],
    }) as { id: string };

    const body = JSON.parse(delivery.raw);
    expect(stripeEvent.id).toBe(body.id);
    expect(standard.id).toBe(body.id);
    expect(body).toMatchObject({ event: "lead.submitted", environment: "sandbox", livemode: false, data: { payload_mode: "full" } });
    expect(delivery.headers["x-service-payload"]).toBe("full");
    expect(delivery.headers["webhook-id"]).toBe(body.id);

    // The delivery log tells the same story.
    const log = await http("GET", `${baseUrl()}/partner/v1/webhooks/${endpoint.body.id}/deliveries`, { headers });
    expect(log.status).toBe(200);
    expect(JSON.stringify(log.body)).toContain(body.id);
  });

  it("refuses a receiver on a private address when registering", async () => {
    const { sandbox } = await newPartner();
    const res = await http("POST", `${baseUrl()}/partner/v1/webhooks`, { headers: { "X-API-Key": sandbox.key }, body: { url: "https://10.0.0.7/hooks" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_request", field: "url" });
  });
});
