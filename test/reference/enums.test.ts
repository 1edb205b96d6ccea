import { describe, expect, it } from "vitest";
import { ENUM_NAMES } from "../../src/domain/reference/catalogue";
import { MARKETS, resolveCountry } from "../../src/domain/reference/markets";
import { INDUSTRY_VALUES } from "../../src/domain/reference/values";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";

const SPEC_LISTS = [
  "countries", "currencies", "company-types", "industries", "purposes", "product-families", "funding-amount-bands",
  "revenue-bands", "time-in-business-bands", "credit-score-bands", "document-types", "lead-states", "webhook-events",
];
/** Lists the spec leaves to "read from the enum lists": document states, and what a lender's request may ask for. */
const DOCUMENT_LISTS = ["document-states", "document-request-items", "document-request-statuses"];
/** Decisions: why a lender or the business declined, and what a product may require of an application (a lead's needs). */
const DECISION_LISTS = ["decline-reasons", "offer-decline-reasons", "requirement-fields"];
const ALL_LISTS = [...SPEC_LISTS, ...DOCUMENT_LISTS, ...DECISION_LISTS];

describe("GET /partner/v1/enums", () => {
  it("lists every list the spec names and where to read it", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/enums", { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body.enums.map((e: any) => e.name).sort()).toEqual([...ALL_LISTS].sort());
    const perCountry = res.body.enums.filter((e: any) => e.requires_country).map((e: any) => e.name).sort();
    expect(perCountry).toEqual(["company-types", "funding-amount-bands", "revenue-bands"]);
  });

  it.each(ALL_LISTS)("serves %s", async (name) => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/enums/${name}?country=GB`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(name);
    expect(res.body.values.length).toBeGreaterThan(0);
    for (const v of res.body.values) expect(typeof v.value).toBe("string");
  });

  it("serves the decline reasons with labels, the codes the lender API takes", async () => {
    const { live } = await partnerWithKeys();
    const { body } = await call("GET", "/partner/v1/enums/decline-reasons", { key: live.key });
    expect(body.values.map((v: any) => v.value)).toEqual([
      "trading_history_too_short", "revenue_below_minimum", "affordability", "adverse_credit", "sector_not_funded",
      "company_status", "documents_incomplete", "amount_outside_range", "unable_to_verify", "other",
    ]);
    for (const v of body.values) expect(v.label.length).toBeGreaterThan(5);
    const catalogue = await call("GET", "/partner/v1/enums", { key: live.key });
    expect(catalogue.body.enums.find((e: any) => e.name === "decline-reasons")).toMatchObject({ requires_country: false, url: "/partner/v1/enums/decline-reasons" });
  });

  it("serves the market table with its metadata, UK as the code for GB, Germany and Italy refused", async () => {
    const { live } = await partnerWithKeys();
    const { body } = await call("GET", "/partner/v1/enums/countries", { key: live.key });
    const uk = body.values.find((v: any) => v.alpha2 === "GB");
    expect(uk).toMatchObject({
      value: "UK", alpha3: "GBR", currency: "GBP", local_currency: "GBP", instant_matching: true, launch: "open",
      supported: true, required_for_submit: ["company_number", "entity_type", "monthly_revenue", "time_in_business"],
    });
    expect(uk.register_number_label).toBeTruthy();
    expect(body.values.find((v: any) => v.value === "DK")).toMatchObject({ currency: "EUR", local_currency: "DKK" });
    expect(body.values.find((v: any) => v.value === "FR")).toMatchObject({ launch: "integrated" });
    expect(body.values.find((v: any) => v.value === "US").required_for_submit).toEqual(["credit_score_band", "monthly_revenue", "time_in_business"]);
    expect(body.values.filter((v: any) => v.supported).length).toBe(12);
    expect(body.values.filter((v: any) => !v.supported).map((v: any) => v.label)).toEqual(["Germany", "Italy"]);
  });

  it.each(["GB", "UK", "gbr", "United Kingdom", "great britain"])("reads country=%s as the United Kingdom", async (country) => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/enums/revenue-bands?country=${encodeURIComponent(country)}`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body.country).toBe("UK");
    expect(res.body.values[0]).toMatchObject({ value: "under_10k", currency: "GBP" });
  });

  it("gives money bands in the market currency", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/enums/funding-amount-bands?country=USA", { key: live.key });
    expect(res.body.country).toBe("US");
    expect(res.body.values.every((v: any) => v.currency === "USD")).toBe(true);
  });

  it.each(["company-types", "funding-amount-bands", "revenue-bands"])("requires country for %s", async (name) => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/enums/${name}`, { key: live.key });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("query.country");
  });

  it.each(["DE", "Germany", "ITA", "italy"])("refuses %s as a country", async (country) => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", `/partner/v1/enums/company-types?country=${country}`, { key: live.key });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("query.country");
    expect(res.body.detail).toMatch(/not served/);
  });

  it("refuses an unknown country naming the supported ones", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/enums/company-types?country=Atlantis", { key: live.key });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.detail).toContain("GB, US, CA");
  });

  it("answers an unknown list with 404", async () => {
    const { live } = await partnerWithKeys();
    expectProblem(await call("GET", "/partner/v1/enums/colours", { key: live.key }), 404, "not_found");
  });

  it("gives company types per market", async () => {
    const { live } = await partnerWithKeys();
    const gb = await call("GET", "/partner/v1/enums/company-types?country=GB", { key: live.key });
    const us = await call("GET", "/partner/v1/enums/company-types?country=US", { key: live.key });
    expect(gb.body.values.map((v: any) => v.value)).toContain("private_limited_company");
    expect(us.body.values.map((v: any) => v.value)).toContain("llc");
    expect(us.body.values.map((v: any) => v.value)).not.toContain("private_limited_company");
  });
});

describe("the reference values are one source of truth", () => {
  it("serves exactly the values validation accepts", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/enums/industries", { key: live.key });
    expect(res.body.values.map((v: any) => v.value)).toEqual([...INDUSTRY_VALUES]);
    expect(ENUM_NAMES.length).toBe(ALL_LISTS.length);
  });

  it("resolves every market by alpha-2, alpha-3 and name", () => {
    for (const m of MARKETS) {
      for (const input of [m.country, m.alpha3, m.name, m.name.toUpperCase()]) {
        const r = resolveCountry(input);
        expect(r.ok && r.market.country).toBe(m.country);
      }
    }
  });
});
