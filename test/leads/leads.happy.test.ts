import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead, person } from "./helpers";

describe("POST /partner/v1/leads", () => {
  it("opens a UK draft lead with every field, unknowns null, bands marked as bands", async () => {
    const { sandbox } = await partnerWithKeys();
    const body = completeUkLead();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body });
    expect(res.status).toBe(201);
    const lead = res.body;
    expect(res.headers.get("Location")).toBe(`http://api.test/partner/v1/leads/${lead.id}`);
    expect(lead.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lead.reference).toMatch(/^RF-[2-9A-HJKMNP-Z]{6}$/);
    expect(lead).toMatchObject({
      partner_reference: "acct-42",
      state: "draft",
      environment: "sandbox",
      country: "UK",
      currency: "GBP",
      channel: { name: "Acme Books", domain: "acmebooks.example" },
      contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000" },
      consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
      significant_persons: [],
      matched_options: null,
      options: null,
      offers: [],
      documents: [],
      statements: { has_statements: false, uploaded_at: null, account_kind: null },
      funding_outcome: null,
      upload_url: expect.stringMatching(new RegExp(`^http://localhost:8787/hub/${lead.id}/[0-9a-f]{40}$`)),
      submitted_at: null,
    });
    expect(lead.business).toEqual({
      name: "Widgets Ltd",
      company_number: body.business.company_number,
      entity_type: "private_limited_company",
      industry: "ecommerce",
      registry: null,
      vat: { number: "GB123456789", valid: null, checked_at: null, source: null, registered_name: null, registered_address: null, reason: null },
    });
    expect(lead.funding).toEqual({ amount: 40_000, amount_band: null, amount_basis: "applicant", currency: "GBP", purpose: "working_capital", product_family: "business_loan" });
    expect(lead.trading).toEqual({
      monthly_revenue: 37_500,
      monthly_revenue_band: "25k_50k",
      monthly_revenue_basis: "band_midpoint",
      annual_turnover: 420_000,
      annual_turnover_basis: "applicant",
      time_in_business_band: "24m_60m",
      tib_months: 42,
      tib_months_basis: "band_midpoint",
    });
    expect(lead.uk).toEqual({ company_register_number: body.business.company_number, entity_type: "private_limited_company", annual_turnover: 420_000, significant_persons: [] });
    expect(lead).not.toHaveProperty("us");
    expect(lead).not.toHaveProperty("other");
    expect(lead.steps).toEqual({ organisation_details_complete: true, significant_persons_complete: false, documents_complete: false, offer_step_complete: false });
    expect(lead.timeline).toEqual([{ event: "lead.created", occurred_at: lead.created_at }]);
  });

  it("answers a minimal lead with nulls, never defaults", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key, { country: "United Kingdom" });
    expect(lead).toMatchObject({ environment: "live", country: "UK", partner_reference: null });
    expect(lead.channel).toEqual({ name: null, domain: null });
    expect(lead.contact).toEqual({ first_name: null, last_name: null, email: null, phone: null });
    expect(lead.consent).toEqual({ obtained: null, obtained_at: null, soft_credit_search: null, text_version: null, withdrawn_at: null, receipt: null });
    expect(lead.funding).toEqual({ amount: null, amount_band: null, amount_basis: null, currency: "GBP", purpose: null, product_family: null });
    expect(lead.business.vat.reason).toBe("no_number");
    expect(lead.trading.monthly_revenue).toBeNull();
    expect(lead.trading.monthly_revenue_basis).toBeNull();
    expect(lead.steps.organisation_details_complete).toBe(false);
  });

  it.each(["GB", "UK", "gbr", "united kingdom"])("accepts the United Kingdom written %s and answers UK", async (country) => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { country });
    expect(lead).toMatchObject({ country: "UK", currency: "GBP" });
  });

  it("gives US leads the us block with a credit score band, ein and signup_ip, and no vat", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, {
      country: "USA",
      trading: { monthly_revenue: 30_000, monthly_revenue_band: "25k_50k", tib_months: 30, credit_score_band: "670_739" },
      funding: { amount_band: "over_500k" },
    });
    expect(lead.country).toBe("US");
    expect(lead.currency).toBe("USD");
    expect(lead.us).toEqual({
      region: null,
      monthly_revenue_band: "25k_50k",
      monthly_revenue: 30_000,
      monthly_revenue_basis: "applicant",
      time_in_business_band: null,
      tib_months: 30,
      credit_score_band: "670_739",
      currency: "USD",
      ein: null,
      signup_ip: null,
    });
    expect(lead.trading.credit_score_band).toBe("670_739");
    expect(lead.funding).toMatchObject({ amount: 500_000, amount_basis: "band_lower_bound", amount_band: "over_500k" });
    expect(lead.business).not.toHaveProperty("vat");
    expect(lead).not.toHaveProperty("uk");
  });

  it("gives CA leads the ca block without ein or signup_ip", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { country: "canada" });
    expect(Object.keys(lead.ca).sort()).toEqual(
      ["credit_score_band", "currency", "monthly_revenue", "monthly_revenue_band", "monthly_revenue_basis", "region", "time_in_business_band", "tib_months"].sort(),
    );
    expect(lead.ca.currency).toBe("CAD");
  });

  it("gives other markets the other block, and Spain no company_number", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { country: "ESP", trading: { monthly_revenue_band: "under_10k" } });
    expect(lead.country).toBe("ES");
    expect(lead.other).toEqual({ monthly_revenue_band: "under_10k", time_in_business_band: null, currency: "EUR" });
    expect(lead.business).not.toHaveProperty("company_number");
    expect(lead.business).toHaveProperty("vat");
    expect(lead.trading).not.toHaveProperty("credit_score_band");
    const au = await createLead(sandbox.key, { country: "AU", business: { company_number: "51 824 753 556" } });
    expect(au.business.company_number).toBe("51 824 753 556");
    expect(au.business).not.toHaveProperty("vat");
  });
});

describe("GET /partner/v1/leads/{id}", () => {
  it("reads the lead back as created", async () => {
    const { sandbox } = await partnerWithKeys();
    const created = await createLead(sandbox.key);
    const res = await call("GET", `/partner/v1/leads/${created.id}`, { key: sandbox.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });
});

describe("PATCH /partner/v1/leads/{id}", () => {
  it("changes only present fields, merges nested objects and clears with null", async () => {
    const { sandbox } = await partnerWithKeys();
    const created = await createLead(sandbox.key);
    const res = await call("PATCH", `/partner/v1/leads/${created.id}`, {
      key: sandbox.key,
      body: { business: { name: "Widgets Group Ltd", vat: null }, trading: { monthly_revenue: 41_000 }, contact: { phone: null } },
    });
    expect(res.status).toBe(200);
    expect(res.body.business).toMatchObject({ name: "Widgets Group Ltd", company_number: created.business.company_number, industry: "ecommerce" });
    expect(res.body.business.vat).toMatchObject({ number: null, reason: "no_number" });
    expect(res.body.trading).toMatchObject({ monthly_revenue: 41_000, monthly_revenue_basis: "applicant", monthly_revenue_band: "25k_50k" });
    expect(res.body.contact).toEqual({ first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: null });
    expect(res.body.partner_reference).toBe("acct-42");
    expect(res.body.updated_at >= created.updated_at).toBe(true);
    expect(res.body.timeline).toEqual(created.timeline);
  });

  it("keeps every change of concurrent PATCHes to different parts", async () => {
    const { sandbox } = await partnerWithKeys();
    const created = await createLead(sandbox.key, { country: "GB" });
    const bodies = [{ business: { name: "A Ltd" } }, { contact: { email: "a@example.com" } }, { funding: { amount: 9_000 } }];
    const results = await Promise.all(bodies.map((body) => call("PATCH", `/partner/v1/leads/${created.id}`, { key: sandbox.key, body })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const lead = (await call("GET", `/partner/v1/leads/${created.id}`, { key: sandbox.key })).body;
    expect(lead.business.name).toBe("A Ltd");
    expect(lead.contact.email).toBe("a@example.com");
    expect(lead.funding.amount).toBe(9_000);
  });

  it("moves a lead to another market and re-checks its fields", async () => {
    const { sandbox } = await partnerWithKeys();
    const created = await createLead(sandbox.key, { country: "GB", trading: { monthly_revenue_band: "under_10k" } });
    const res = await call("PATCH", `/partner/v1/leads/${created.id}`, { key: sandbox.key, body: { country: "US", trading: { credit_score_band: "740_plus" } } });
    expect(res.status).toBe(200);
    expect(res.body.country).toBe("US");
    expect(res.body.us.credit_score_band).toBe("740_plus");
    expect(res.body).not.toHaveProperty("uk");
  });
});

describe("PUT /partner/v1/leads/{id}/significant-persons", () => {
  it("replaces the whole list and updates the steps", async () => {
    const { sandbox } = await partnerWithKeys();
    const created = await createLead(sandbox.key);
    const first = await call("PUT", `/partner/v1/leads/${created.id}/significant-persons`, {
      key: sandbox.key,
      body: { significant_persons: [person(), person({ full_name: "Charles Babbage", ownership_percent: 40 })] },
    });
    expect(first.status).toBe(200);
    expect(first.body.significant_persons).toHaveLength(2);
    expect(first.body.steps.significant_persons_complete).toBe(true);
    const second = await call("PUT", `/partner/v1/leads/${created.id}/significant-persons`, {
      key: sandbox.key,
      body: { significant_persons: [person({ full_name: "Ada King" })] },
    });
    expect(second.body).toEqual({
      id: created.id,
      significant_persons: [
        {
          full_name: "Ada King",
          date_of_birth: "1984-03-09",
          residential_address: { line1: "1 High Street", line2: null, city: "London", region: null, postal_code: "SW1A 1AA", country: "GB" },
          residency_status: "homeowner",
          ownership_percent: 60,
          guarantee: null,
        },
      ],
      steps: { organisation_details_complete: true, significant_persons_complete: true, documents_complete: false, offer_step_complete: false },
    });
    const lead = (await call("GET", `/partner/v1/leads/${created.id}`, { key: sandbox.key })).body;
    expect(lead.significant_persons.map((p: any) => p.full_name)).toEqual(["Ada King"]);
    expect(lead.uk.significant_persons).toEqual(lead.significant_persons);
  });
});

describe("the OpenAPI document", () => {
  it("lists every lead operation", async () => {
    const res = await call("GET", "/partner/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths["/leads"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(res.body.paths["/leads/{id}"]).sort()).toEqual(["get", "patch"]);
    expect(res.body.paths["/leads/{id}/significant-persons"]).toHaveProperty("put");
    expect(res.body.paths["/leads/{id}/submit"]).toHaveProperty("post");
    expect(res.body.components.schemas).toHaveProperty("Lead");
  });

  it("gives each lead operation its request and response schemas and its error statuses", async () => {
    const { body } = await call("GET", "/partner/v1/openapi.json");
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const op = (path: string, method: string) => body.paths[path][method];
    const json = (o: any, status: string) => o.responses[status].content["application/json"].schema;
    const statuses = (o: any) => Object.keys(o.responses).sort();
    const params = (o: any) => o.parameters.map((p: any) => `${p.in}:${p.name}`).sort();

    const create = op("/leads", "post");
    expect(create.requestBody.content["application/json"].schema).toEqual(ref("LeadCreate"));
    expect(json(create, "201")).toEqual(ref("Lead"));
    expect(create.responses["201"].headers).toHaveProperty("Location");
    expect(params(create)).toEqual(["header:Idempotency-Key"]);
    expect(statuses(create)).toEqual(["201", "400", "401", "403", "409", "413", "415", "422", "429", "500", "503"]);

    expect(json(op("/leads/{id}", "get"), "200")).toEqual(ref("Lead"));
    expect(statuses(op("/leads/{id}", "get"))).toEqual(["200", "400", "401", "403", "404", "429", "500", "503"]);

    const patch = op("/leads/{id}", "patch");
    expect(patch.requestBody.content["application/json"].schema).toEqual(ref("LeadPatch"));
    expect(json(patch, "200")).toEqual(ref("Lead"));
    expect(statuses(patch)).toEqual(["200", "400", "401", "403", "404", "409", "412", "413", "415", "422", "429", "500", "503"]);
    expect(params(patch)).toEqual(["header:If-Match", "path:id"]);
    expect(patch.responses["200"].headers).toHaveProperty("ETag");
    expect(op("/leads/{id}", "get").responses["200"].headers).toHaveProperty("ETag");

    const put = op("/leads/{id}/significant-persons", "put");
    expect(put.requestBody.content["application/json"].schema).toEqual(ref("SignificantPersonsPut"));
    expect(json(put, "200")).toEqual(ref("SignificantPersonsResult"));
    expect(statuses(put)).toEqual(["200", "400", "401", "403", "404", "409", "413", "415", "429", "500", "503"]);

    const submit = op("/leads/{id}/submit", "post");
    expect(json(submit, "200")).toEqual(ref("SubmitResult"));
    expect(params(submit)).toEqual(["header:Idempotency-Key", "path:id"]);
    expect(statuses(submit)).toEqual(["200", "400", "401", "403", "404", "409", "413", "422", "429", "500", "503"]);

    const list = op("/leads", "get");
    expect(json(list, "200")).toEqual(ref("LeadList"));
    expect(params(list)).toEqual(["query:cursor", "query:limit", "query:market", "query:state"]);
    expect(statuses(list)).toEqual(["200", "400", "401", "403", "429", "500", "503"]);

    const schemas = body.components.schemas;
    expect(Object.keys(schemas.Lead.properties)).toEqual(
      expect.arrayContaining([
        "id", "reference", "partner_reference", "state", "environment", "country", "currency", "channel", "business", "contact",
        "funding", "trading", "consent", "significant_persons", "steps", "matched_options", "options", "offers", "documents",
        "statements", "funding_outcome", "timeline", "upload_url", "submitted_at", "created_at", "updated_at", "uk", "us", "ca", "other",
      ]),
    );
    expect(Object.keys(schemas.LeadSummary.properties).sort()).toEqual(
      ["id", "reference", "partner_reference", "state", "environment", "country", "currency", "business", "contact", "funding", "renewal_of", "statements_available", "created_at", "updated_at"].sort(),
    );
    expect(Object.keys(schemas.SubmitResult.properties).sort()).toEqual(["already_submitted", "id", "matched_options", "needs", "options", "reference", "state", "submitted_at"]);
    expect(schemas.LeadCreate.required).toEqual(["country"]);
    expect(schemas.LeadCreate.additionalProperties).toBe(false);
  });
});

describe("PATCH /partner/v1/leads/{id} with If-Match (issue 39 item 2)", () => {
  it("tags each read with the lead's version (ETag) and refuses a PATCH sent with a stale one: 412, nothing written", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    const etag = read.headers.get("ETag");
    expect(etag).toMatch(/^"\d+"$/);

    const first = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body: { funding: { amount: 55_000 } }, headers: { "If-Match": etag! } });
    expect(first.status).toBe(200);
    const next = first.headers.get("ETag");
    expect(next).toMatch(/^"\d+"$/);
    expect(next).not.toBe(etag);

    const stale = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body: { funding: { amount: 1 } }, headers: { "If-Match": etag! } });
    expect(stale.status).toBe(412);
    expect(stale.headers.get("Content-Type")).toContain("application/problem+json");
    expect(stale.body.error).toMatchObject({ code: "precondition_failed", field: "header.If-Match" });
    const after = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    expect(after.body.funding.amount).toBe(55_000);
    expect(after.headers.get("ETag")).toBe(next);

    // Without If-Match, or with *, the PATCH applies to whatever is held (as before); a malformed tag is 400.
    expect((await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body: { partner_reference: "A-1" } })).status).toBe(200);
    expect((await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body: { partner_reference: "A-2" }, headers: { "If-Match": "*" } })).status).toBe(200);
    const malformed = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body: { partner_reference: "A-3" }, headers: { "If-Match": "version 3" } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.field).toBe("header.If-Match");
  });
});
