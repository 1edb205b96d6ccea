import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead, person } from "./helpers";

const withPersons = (persons: unknown[]) => ({ country: "GB", significant_persons: persons });

/** [label, body, field named in error.field] — each answered 400 invalid_request. */
const BAD_CREATES: [string, unknown, string][] = [
  ["no country", { business: { name: "x" } }, "country"],
  ["Germany", { country: "DE" }, "country"],
  ["Italy by name", { country: "Italy" }, "country"],
  ["an unknown country", { country: "Atlantis" }, "country"],
  ["a country of the wrong type", { country: 826 }, "country"],
  ["an unknown top-level key", { country: "GB", state: "funded" }, "state"],
  ["an unknown nested key", { country: "GB", business: { name: "x", registry: {} } }, "business.registry"],
  ["an unknown key two levels down", { country: "GB", business: { vat: { number: "1", valid: true } } }, "business.vat.valid"],
  ["an unknown key in a person's address", withPersons([person({ residential_address: { line1: "a", postal_code: "b", lat: 1 } })]), "significant_persons.0.residential_address.lat"],
  ["an unknown key in a person", withPersons([person({ ssn: "1" })]), "significant_persons.0.ssn"],
  ["a string amount", { country: "GB", funding: { amount: "5000" } }, "funding.amount"],
  ["a negative amount", { country: "GB", funding: { amount: -1 } }, "funding.amount"],
  ["a negative revenue", { country: "GB", trading: { monthly_revenue: -100 } }, "trading.monthly_revenue"],
  ["fractional months", { country: "GB", trading: { tib_months: 2.5 } }, "trading.tib_months"],
  ["an unknown industry", { country: "GB", business: { industry: "piracy" } }, "business.industry"],
  ["an unknown purpose", { country: "GB", funding: { purpose: "yacht" } }, "funding.purpose"],
  ["an unknown product family", { country: "GB", funding: { product_family: "crypto_loan" } }, "funding.product_family"],
  ["an unknown entity type", { country: "GB", business: { entity_type: "guild" } }, "business.entity_type"],
  ["another market's entity type", { country: "GB", business: { entity_type: "llc" } }, "business.entity_type"],
  ["an unknown revenue band", { country: "GB", trading: { monthly_revenue_band: "lots" } }, "trading.monthly_revenue_band"],
  ["an unknown time-in-business band", { country: "GB", trading: { time_in_business_band: "ages" } }, "trading.time_in_business_band"],
  ["an unknown amount band", { country: "GB", funding: { amount_band: "huge" } }, "funding.amount_band"],
  ["an unknown credit score band", { country: "US", trading: { credit_score_band: "great" } }, "trading.credit_score_band"],
  ["a credit score band outside the US and Canada", { country: "GB", trading: { credit_score_band: "740_plus" } }, "trading.credit_score_band"],
  ["a company number in Spain", { country: "ES", business: { company_number: "B1234" } }, "business.company_number"],
  ["a VAT number where no VAT register is checked", { country: "US", business: { vat: { number: "1" } } }, "business.vat"],
  ["a bad email", { country: "GB", contact: { email: "not-an-email" } }, "contact.email"],
  ["a bad phone", { country: "GB", contact: { phone: "call me" } }, "contact.phone"],
  ["an overlong name", { country: "GB", business: { name: "x".repeat(201) } }, "business.name"],
  ["an overlong partner reference", { country: "GB", partner_reference: "x".repeat(101) }, "partner_reference"],
  ["an empty name", { country: "GB", business: { name: "  " } }, "business.name"],
  ["consent given as a string", { country: "GB", consent: { obtained: "yes" } }, "consent.obtained"],
  ["a consent time that is not a date-time", { country: "GB", consent: { obtained_at: "yesterday" } }, "consent.obtained_at"],
  ["persons as an object", { country: "GB", significant_persons: { full_name: "x" } }, "significant_persons"],
  ["a person without a name", withPersons([person({ full_name: undefined })]), "significant_persons.0.full_name"],
  ["a person without an address", withPersons([person({ residential_address: undefined })]), "significant_persons.0.residential_address"],
  ["an address without line1", withPersons([person({ residential_address: { postal_code: "SW1A 1AA" } })]), "significant_persons.0.residential_address.line1"],
  ["an address without postal_code", withPersons([person({ residential_address: { line1: "1 High St" } })]), "significant_persons.0.residential_address.postal_code"],
  ["a 30 February birthday", withPersons([person({ date_of_birth: "1990-02-30" })]), "significant_persons.0.date_of_birth"],
  ["a birthday in another format", withPersons([person({ date_of_birth: "09/03/1984" })]), "significant_persons.0.date_of_birth"],
  ["a birthday in the future", withPersons([person({ date_of_birth: "2099-01-01" })]), "significant_persons.0.date_of_birth"],
  ["a minor", withPersons([person({ date_of_birth: `${new Date().getUTCFullYear() - 10}-01-01` })]), "significant_persons.0.date_of_birth"],
  ["ownership over 100 for one person", withPersons([person({ ownership_percent: 101 })]), "significant_persons.0.ownership_percent"],
  ["negative ownership", withPersons([person({ ownership_percent: -5 })]), "significant_persons.0.ownership_percent"],
  ["ownership over 100 in total", withPersons([person({ ownership_percent: 70 }), person({ ownership_percent: 40 })]), "significant_persons"],
];

describe("POST /partner/v1/leads refuses bad input", () => {
  it.each(BAD_CREATES)("%s → 400 invalid_request", async (_label, body, field) => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });

  it("names Germany and Italy as refused", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body: { country: "DEU" } });
    expect(res.body.message).toMatch(/Germany is not served/);
  });

  it.each([
    ["malformed JSON", "{nope"],
    ["a JSON array", "[]"],
    ["an infinite amount", '{"country":"GB","funding":{"amount":1e400}}'],
  ])("%s → 400 invalid_request", async (_label, rawBody) => {
    const { sandbox } = await partnerWithKeys();
    expectProblem(await call("POST", "/partner/v1/leads", { key: sandbox.key, rawBody, contentType: "application/json" }), 400, "invalid_request");
  });

  it("answers an oversized body with 413 payload_too_large", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body: { country: "GB", partner_reference: "x".repeat(300_000) } });
    expectProblem(res, 413, "payload_too_large");
  });
});

describe("PATCH /partner/v1/leads/{id} refuses bad input", () => {
  it.each([
    ["an unknown key", { stage: "x" }, "stage"],
    ["a negative amount", { funding: { amount: -3 } }, "funding.amount"],
    ["Italy", { country: "ITA" }, "country"],
    ["a credit score band in the UK", { trading: { credit_score_band: "below_500" } }, "trading.credit_score_band"],
    ["a move to Spain while a company number is held", { country: "ES" }, "business.company_number"],
    ["a US entity type in the UK", { business: { entity_type: "c_corporation" } }, "business.entity_type"],
    ["a bad birthday", { significant_persons: [person({ date_of_birth: "1990-13-01" })] }, "significant_persons.0.date_of_birth"],
  ])("%s → 400 invalid_request", async (_label, body, field) => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, completeUkLead());
    const res = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
    const after = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    expect(after.body).toEqual(lead);
  });
});

describe("PUT /partner/v1/leads/{id}/significant-persons refuses bad input", () => {
  it.each([
    ["no list", {}, "significant_persons"],
    ["an unknown key", { significant_persons: [], extra: 1 }, "extra"],
    ["an address without postal_code", { significant_persons: [person({ residential_address: { line1: "x" } })] }, "significant_persons.0.residential_address.postal_code"],
    ["ownership over 100 in total", { significant_persons: [person({ ownership_percent: 50 }), person({ ownership_percent: 50.5 })] }, "significant_persons"],
    ["an 18th birthday tomorrow", { significant_persons: [person({ date_of_birth: eighteenTomorrow() })] }, "significant_persons.0.date_of_birth"],
  ])("%s → 400 invalid_request", async (_label, body, field) => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const res = await call("PUT", `/partner/v1/leads/${lead.id}/significant-persons`, { key: sandbox.key, body });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });
});

function eighteenTomorrow() {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + 1);
  return `${d.getUTCFullYear() - 18}-${String(d.getUTCMonth() + 1).padStart(2, "0")}-${String(d.getUTCDate()).padStart(2, "0")}`;
}
