import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { once } from "../helpers/once";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead, person } from "./helpers";

// One partner per describe block, made on its first case (`once`): every case here is refused and writes
// nothing a later case reads (a PATCH or PUT case makes its own lead), so a partner of its own per case
// only cost three admin calls each. One block stays under the per-key limit (120 a minute).

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
  // Unknown keys at every level of the body.
  ["an unknown key in channel", { country: "GB", channel: { name: "x", brand: "y" } }, "channel.brand"],
  ["an unknown key in contact", { country: "GB", contact: { fax: "1" } }, "contact.fax"],
  ["an unknown key in funding", { country: "GB", funding: { rate: 5 } }, "funding.rate"],
  ["an unknown key in trading", { country: "GB", trading: { ebitda: 5 } }, "trading.ebitda"],
  ["an unknown key in consent", { country: "GB", consent: { ip: "1.2.3.4" } }, "consent.ip"],
  // Wrong types.
  ["business as a string", { country: "GB", business: "Widgets Ltd" }, "business"],
  ["funding as an array", { country: "GB", funding: [] }, "funding"],
  ["a partner reference as a number", { country: "GB", partner_reference: 42 }, "partner_reference"],
  ["months trading as a string", { country: "GB", trading: { tib_months: "12" } }, "trading.tib_months"],
  ["a person that is not an object", withPersons([1]), "significant_persons.0"],
  ["ownership as a string", withPersons([person({ ownership_percent: "50" })]), "significant_persons.0.ownership_percent"],
  ["a birthday as a number", withPersons([person({ date_of_birth: 19840309 })]), "significant_persons.0.date_of_birth"],
  ["an address as a string", withPersons([person({ residential_address: "1 High Street" })]), "significant_persons.0.residential_address"],
  // Money and other numbers out of range.
  ["a negative annual turnover", { country: "GB", trading: { annual_turnover: -1 } }, "trading.annual_turnover"],
  ["an absurd amount", { country: "GB", funding: { amount: 1e13 } }, "funding.amount"],
  ["negative months trading", { country: "GB", trading: { tib_months: -1 } }, "trading.tib_months"],
  // Dates of birth.
  ["a birthday more than 120 years ago", withPersons([person({ date_of_birth: "1850-06-01" })]), "significant_persons.0.date_of_birth"],
  ["a birthday with a time", withPersons([person({ date_of_birth: "1984-03-09T00:00:00Z" })]), "significant_persons.0.date_of_birth"],
  ["an empty address line", withPersons([person({ residential_address: { line1: " ", postal_code: "SW1A 1AA" } })]), "significant_persons.0.residential_address.line1"],
  ["more than 25 persons", withPersons(Array.from({ length: 26 }, () => person({ ownership_percent: null }))), "significant_persons"],
  // Strings over their lengths.
  ["an overlong email", { country: "GB", contact: { email: `${"a".repeat(250)}@example.com` } }, "contact.email"],
  ["an overlong first name", { country: "GB", contact: { first_name: "x".repeat(101) } }, "contact.first_name"],
  ["an overlong channel domain", { country: "GB", channel: { domain: "x".repeat(254) } }, "channel.domain"],
  ["an overlong company number", { country: "GB", business: { company_number: "1".repeat(51) } }, "business.company_number"],
  ["an overlong VAT number", { country: "GB", business: { vat: { number: "1".repeat(33) } } }, "business.vat.number"],
  ["an overlong person's name", withPersons([person({ full_name: "x".repeat(201) })]), "significant_persons.0.full_name"],
  ["an overlong postal code", withPersons([person({ residential_address: { line1: "1 High St", postal_code: "x".repeat(21) } })]), "significant_persons.0.residential_address.postal_code"],
];

describe("POST /partner/v1/leads refuses bad input", () => {
  const partner = once(partnerWithKeys);
  it.each(BAD_CREATES)("%s → 400 invalid_request", async (_label, body, field) => {
    const { sandbox } = await partner();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });

  it("names Germany and Italy as refused", async () => {
    const { sandbox } = await partner();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body: { country: "DEU" } });
    expect(res.body.message).toMatch(/Germany is not served/);
  });

  it.each([
    ["malformed JSON", "{nope"],
    ["a JSON array", "[]"],
    ["an infinite amount", '{"country":"GB","funding":{"amount":1e400}}', "funding.amount"],
    ["an infinite revenue", '{"country":"GB","trading":{"monthly_revenue":-1e400}}', "trading.monthly_revenue"],
    ["an infinite ownership", '{"country":"GB","significant_persons":[{"full_name":"A","date_of_birth":"1984-03-09","residential_address":{"line1":"1","postal_code":"2"},"ownership_percent":1e400}]}', "significant_persons.0.ownership_percent"],
  ])("%s → 400 invalid_request", async (_label, rawBody, field?: string) => {
    const { sandbox } = await partner();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, rawBody, contentType: "application/json" });
    expectProblem(res, 400, "invalid_request");
    if (field) expect(res.body.error.field).toBe(field);
  });

  it("answers an oversized body with 413 payload_too_large", async () => {
    const { sandbox } = await partner();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body: { country: "GB", partner_reference: "x".repeat(300_000) } });
    expectProblem(res, 413, "payload_too_large");
  });
});

describe("PATCH /partner/v1/leads/{id} refuses bad input", () => {
  const partner = once(partnerWithKeys);
  it.each([
    ["an unknown key", { stage: "x" }, "stage"],
    ["a negative amount", { funding: { amount: -3 } }, "funding.amount"],
    ["Italy", { country: "ITA" }, "country"],
    ["a credit score band in the UK", { trading: { credit_score_band: "below_500" } }, "trading.credit_score_band"],
    ["a move to Spain while a company number is held", { country: "ES" }, "business.company_number"],
    ["a US entity type in the UK", { business: { entity_type: "c_corporation" } }, "business.entity_type"],
    ["a bad birthday", { significant_persons: [person({ date_of_birth: "1990-13-01" })] }, "significant_persons.0.date_of_birth"],
    ["an unknown nested key", { contact: { fax: "1" } }, "contact.fax"],
    ["a number as a string", { funding: { amount: "40000" } }, "funding.amount"],
    ["an unknown product family", { funding: { product_family: "crypto_loan" } }, "funding.product_family"],
    ["an overlong name", { business: { name: "x".repeat(201) } }, "business.name"],
  ])("%s → 400 invalid_request", async (_label, body, field) => {
    const { sandbox } = await partner();
    const lead = await createLead(sandbox.key, completeUkLead());
    const res = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
    const after = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    expect(after.body).toEqual(lead);
  });
});

describe("PUT /partner/v1/leads/{id}/significant-persons refuses bad input", () => {
  const partner = once(partnerWithKeys);
  it.each([
    ["no list", {}, "significant_persons"],
    ["an unknown key", { significant_persons: [], extra: 1 }, "extra"],
    ["an address without postal_code", { significant_persons: [person({ residential_address: { line1: "x" } })] }, "significant_persons.0.residential_address.postal_code"],
    ["ownership over 100 in total", { significant_persons: [person({ ownership_percent: 50 }), person({ ownership_percent: 50.5 })] }, "significant_persons"],
    ["an 18th birthday tomorrow", { significant_persons: [person({ date_of_birth: eighteenTomorrow() })] }, "significant_persons.0.date_of_birth"],
    ["a list as an object", { significant_persons: person() }, "significant_persons"],
    ["null for the list", { significant_persons: null }, "significant_persons"],
    ["an address without line1", { significant_persons: [person({ residential_address: { postal_code: "SW1A 1AA" } })] }, "significant_persons.0.residential_address.line1"],
    ["an unknown key in a person", { significant_persons: [person({ nationality: "GB" })] }, "significant_persons.0.nationality"],
    ["negative ownership", { significant_persons: [person({ ownership_percent: -1 })] }, "significant_persons.0.ownership_percent"],
  ])("%s → 400 invalid_request", async (_label, body, field) => {
    const { sandbox } = await partner();
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
