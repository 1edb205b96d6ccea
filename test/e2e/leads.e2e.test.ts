import { describe, expect, it } from "vitest";
import { baseUrl, http, newPartner } from "./client";

describe("a partner's lead over HTTP", () => {
  it("opens, fills in, submits and lists a lead", async () => {
    const { sandbox } = await newPartner();
    const headers = { "X-API-Key": sandbox.key };
    const api = `${baseUrl()}/partner/v1`;

    const body = {
      country: "United Kingdom",
      partner_reference: "CRM-1",
      business: { name: "Acme Trading Ltd", industry: "retail" },
      contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@acme.example" },
      funding: { amount_band: "50k_100k", purpose: "stock_inventory" },
    };
    const created = await http("POST", `${api}/leads`, { headers: { ...headers, "Idempotency-Key": "e2e-open-1" }, body });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toContain(`/partner/v1/leads/${created.body.id}`);
    expect(created.body).toMatchObject({ country: "UK", currency: "GBP", state: "draft", environment: "sandbox" });
    expect(created.body.funding).toMatchObject({ amount_band: "50k_100k", amount: 75000, amount_basis: "band_midpoint" });

    const replay = await http("POST", `${api}/leads`, { headers: { ...headers, "Idempotency-Key": "e2e-open-1" }, body });
    expect(replay.body.id).toBe(created.body.id);

    const early = await http("POST", `${api}/leads/${created.body.id}/submit`, { headers });
    expect(early.status).toBe(422);
    expect(early.body.error.code).toBe("missing_fields");
    expect(early.body.missing).toEqual(expect.arrayContaining(["business.company_number", "business.entity_type", "trading.monthly_revenue"]));

    const patched = await http("PATCH", `${api}/leads/${created.body.id}`, {
      headers,
      body: {
        business: { company_number: "09876543", entity_type: "private_limited_company" },
        trading: { monthly_revenue: 42000, time_in_business_band: "24m_60m" },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.business.name).toBe("Acme Trading Ltd");

    const submitted = await http("POST", `${api}/leads/${created.body.id}/submit`, { headers });
    expect(submitted.status).toBe(200);
    expect(submitted.body.already_submitted).toBe(false);
    const again = await http("POST", `${api}/leads/${created.body.id}/submit`, { headers });
    expect(again.body).toMatchObject({ already_submitted: true, state: submitted.body.state });

    const locked = await http("PATCH", `${api}/leads/${created.body.id}`, { headers, body: { partner_reference: "x" } });
    expect(locked.status).toBe(409);
    expect(locked.body.error.code).toBe("lead_submitted");

    const list = await http("GET", `${api}/leads?market=GBR&limit=10`, { headers });
    expect(list.body.leads.map((l: any) => l.id)).toContain(created.body.id);
  });
});
