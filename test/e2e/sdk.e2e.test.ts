// The SDK (sdk/, @rfs/sdk) against wrangler dev: a partner's whole lead life cycle, a lender's
// test deal, and verifyWebhook on real deliveries of the service.
import { createLenderClient, createPartnerClient, verifyWebhook, WebhookVerificationError, type WebhookEvent } from "../../sdk/src/index.js";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK_DOCUMENTS, sdkTypesSource } from "../../scripts/lib/sdk-types.mjs";
import { baseUrl, newLender, newPartner } from "./client";
import { panelLender } from "./panel";
import { startReceiver, type Received } from "./receiver";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const verify = (delivery: Received, secret: string) => verifyWebhook(delivery.raw, delivery.headers, secret);

describe("the SDK against wrangler dev", () => {
  it("ships the types of the documents the service serves (else: npm run sdk:generate)", async () => {
    // Every document is fetched before any is turned into types. openapi-typescript holds the event loop for
    // seconds under load; past wrangler dev's 5 s keep-alive the server closes the idle connection, and the
    // next fetch, written on that socket before its close was read, failed with "other side closed" (seen
    // 2026-11-26, at load 11-27: 376 bytes written, 25,090 read, the first answer whole; replayed at will by
    // blocking the loop 6 s between two fetches, docs/testing.md "A connection closed while the loop was busy").
    const documents = [];
    for (const { path, file } of SDK_DOCUMENTS) documents.push({ path, file, document: await (await fetch(`${baseUrl()}${path}`)).json() });
    for (const { path, file, document } of documents) {
      expect(readFileSync(file, "utf8") === (await sdkTypesSource(document, path)), `${file} is stale: run npm run sdk:generate`).toBe(true);
    }
  });

  it("walks a sandbox lead from creation to funded with the partner client, verifying every delivery", async () => {
    // A panel lender whose product serves the lead below, so the sandbox submit has options to simulate offers from.
    await panelLender("sdk-loan");
    const { org, sandbox } = await newPartner();
    const partner = createPartnerClient({ baseUrl: baseUrl(), apiKey: sandbox.key });

    const me = await partner.GET("/me");
    expect(me.data?.organisation.id).toBe(org.id);

    const endpoint = await partner.POST("/webhooks", { body: { url: receiver.url, events: ["lead.submitted", "lead.offer_accepted", "lead.funded"] } });
    expect(endpoint.response.status).toBe(201);
    const secret = endpoint.data!.secret!;

    const ping = await partner.POST("/webhooks/{id}/test", { params: { path: { id: endpoint.data!.id } } });
    expect(ping.data).toMatchObject({ event: "ping", state: "succeeded", last_status_code: 200 });
    const pingEvent = await verify(await receiver.waitFor((r) => r.headers["x-service-delivery"] === ping.data!.id), secret);
    expect(pingEvent.event).toBe("ping");
    if (pingEvent.event === "ping") expect(pingEvent.data.endpoint_id).toBe(endpoint.data!.id);

    const created = await partner.POST("/leads", {
      params: { header: { "Idempotency-Key": `sdk-${org.id}` } },
      body: {
        country: "GB",
        partner_reference: "SDK-1",
        business: { name: "Typed Client Ltd", industry: "retail" },
        contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@typed.example" },
        funding: { amount: 40000, purpose: "working_capital" },
      },
    });
    expect(created.response.status).toBe(201);
    const lead = created.data!;
    expect(lead.state).toBe("draft");
    const path = { path: { id: lead.id } };

    const early = await partner.POST("/leads/{id}/submit", { params: path });
    expect(early.response.status).toBe(422);
    expect(early.error?.error.code).toBe("missing_fields");

    const filled = await partner.PATCH("/leads/{id}", {
      params: path,
      body: {
        business: { company_number: "01234567", entity_type: "private_limited_company" },
        trading: { monthly_revenue: 30000, tib_months: 48, annual_turnover: 360000 },
        consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
      },
    });
    expect(filled.response.status).toBe(200);
    expect(filled.data?.business.name).toBe("Typed Client Ltd");

    const persons = await partner.PUT("/leads/{id}/significant-persons", {
      params: path,
      body: {
        significant_persons: [
          { full_name: "Ada Lovelace", date_of_birth: "1984-03-09", residential_address: { line1: "1 Analytical Row", postal_code: "SW1A 1AA" }, ownership_percent: 100 },
        ],
      },
    });
    expect(persons.response.status).toBe(200);
    expect(persons.data?.significant_persons).toHaveLength(1);

    const submitted = await partner.POST("/leads/{id}/submit", { params: path });
    expect(submitted.data).toMatchObject({ state: "offers_available", already_submitted: false });

    const offers = await partner.GET("/leads/{id}/offers", { params: path });
    expect(offers.data?.simulated).toBe(true);
    const offer = offers.data!.offers[0];
    const accepted = await partner.POST("/leads/{id}/offers/{offerId}/acceptance", { params: { path: { id: lead.id, offerId: offer.id } } });
    expect(accepted.data).toMatchObject({ state: "accepted", simulated: true });

    const funded = await partner.POST("/sandbox/leads/{id}/simulate", { params: path, body: { event: "fund" } });
    expect(funded.data?.state).toBe("funded");
    expect((await partner.GET("/leads/{id}", { params: path })).data?.state).toBe("funded");

    const events: WebhookEvent[] = [];
    for (const name of ["lead.submitted", "lead.offer_accepted", "lead.funded"]) {
      const delivery = await receiver.waitFor((r) => r.headers["x-service-event"] === name && r.raw.includes(lead.id));
      events.push(await verify(delivery, secret));
    }
    expect(events.map((e) => e.event)).toEqual(["lead.submitted", "lead.offer_accepted", "lead.funded"]);
    const fundedEvent = events[2];
    if (fundedEvent.event !== "lead.funded" || fundedEvent.data.payload_mode !== "full") throw new Error("expected a full lead.funded");
    expect(fundedEvent.data).toMatchObject({ lead_id: lead.id, state: "funded", reference: lead.reference, business: { name: "Typed Client Ltd" } });
    expect(fundedEvent.data.funding_outcome.funded_at).toEqual(expect.any(String));
    const acceptedEvent = events[1];
    if (acceptedEvent.event === "lead.offer_accepted") expect(acceptedEvent.data.offer.id).toBe(offer.id);

    // A delivery verified with another secret, or replayed with an altered body, is refused with a typed error.
    const delivery = await receiver.waitFor((r) => r.headers["x-service-event"] === "lead.funded" && r.raw.includes(lead.id));
    await expect(verifyWebhook(delivery.raw, delivery.headers, "whsec_" + btoa("not the secret"))).rejects.toMatchObject({ code: "invalid_signature" });
    await expect(verifyWebhook(delivery.raw.replace("funded", "declined"), delivery.headers, secret)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it("walks a lender's test deal with the lender client: create, read, status, offer, funded", async () => {
    const { sandbox } = await newLender();
    const lender = createLenderClient({ baseUrl: baseUrl(), apiKey: sandbox.key });

    const endpoint = await lender.POST("/webhooks", { body: { url: receiver.url, events: ["deal.created", "deal.updated"], payload: "reference" } });
    expect(endpoint.response.status).toBe(201);

    const created = await lender.POST("/test/deals", { body: { country: "GB", business: { name: "Lender SDK Ltd" } } });
    expect(created.response.status).toBe(201);
    const ref = created.data!.ref;
    const params = { path: { ref } };

    const deal = await lender.GET("/deals/{ref}", { params });
    expect(deal.data).toMatchObject({ ref, test: true, business: { name: "Lender SDK Ltd" } });
    expect((await lender.GET("/deals", { params: { query: { limit: 10 } } })).data?.deals.map((d) => d.ref)).toContain(ref);

    expect((await lender.POST("/deals/{ref}/status", { params, body: { status: "in_review" } })).response.status).toBe(200);
    const offer = await lender.POST("/deals/{ref}/offers", {
      params,
      body: { maturity: "firm", amount: 40000, kind: "business_loan", annual_rate_pct: 11.5, term_months: 24, fees: 800, total_repayment: 45600 },
    });
    expect(offer.response.status).toBe(201);
    expect((await lender.GET("/deals/{ref}/offers", { params })).data?.offers.map((o) => o.amount)).toEqual([40000]);
    const funded = await lender.POST("/deals/{ref}/status", { params, body: { status: "funded", funded_amount: 40000 } });
    expect(funded.response.status).toBe(200);

    const bad = await lender.POST("/deals/{ref}/status", { params, body: { status: "in_review" } });
    expect(bad.response.status).toBe(409);
    expect(bad.error?.error.code).toBe("invalid_transition");

    const delivery = await receiver.waitFor((r) => r.headers["x-service-event"] === "deal.updated" && r.raw.includes(ref) && r.raw.includes('"funded"'));
    const event = await verifyWebhook(delivery.raw, delivery.headers, endpoint.data!.secret!);
    if (event.event !== "deal.updated" || event.data.payload_mode !== "reference") throw new Error("expected a reference deal.updated");
    expect(event.data).toMatchObject({ ref, test: true, update: { status: "funded", funded_amount: 40000 } });
  });
});
