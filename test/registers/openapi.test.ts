import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";

const REGISTRY_KEYS = [
  "source", "status", "registered_name", "incorporated_on", "company_age_months", "company_status", "company_type", "sic_codes", "activity_codes",
  "registered_office", "directors", "officers", "psc_count", "accounts", "confirmation_statement", "charges_count", "has_insolvency_history",
  "filed_financials", "filings", "share_capital", "registers", "exemptions", "uk_establishments_count", "disqualified_directors_count",
  "identifiers", "business_description", "sections", "checked_at",
];

describe("the register objects in the OpenAPI documents", () => {
  it.each([
    ["partner", "/partner/v1/openapi.json"],
    ["lender", "/v1/openapi.json"],
  ])("%s: registry is a described union of an answer and an unavailable register, vat a described object", async (_api, path) => {
    const doc = (await call("GET", path)).body;
    const schemas = doc.components.schemas;
    const registry = schemas.Registry;
    expect(registry.description).toMatch(/Null until/);
    expect(JSON.stringify(registry)).toContain("#/components/schemas/RegistryAvailable");
    expect(JSON.stringify(registry)).toContain("#/components/schemas/RegistryUnavailable");
    expect(Object.keys(schemas.RegistryAvailable.properties)).toEqual(REGISTRY_KEYS);
    // The unanswered shape is exactly {source, status, reason}: no checked_at, no other key (decisions.md).
    expect(JSON.stringify(registry.oneOf ?? registry.anyOf)).toContain("RegistryUnavailable");
    expect(registry.oneOf).toBeDefined();
    expect(Object.keys(schemas.RegistryUnavailable.properties).sort()).toEqual(["reason", "source", "status"]);
    expect(schemas.RegistryUnavailable.required.sort()).toEqual(["reason", "source", "status"]);
    expect(schemas.RegistryUnavailable.additionalProperties).toBe(false);
    expect(schemas.RegistryUnavailable.properties.reason.enum).toEqual(["not_found", "timeout", "unavailable", "not_configured", "not_available_in_state", "rate_limited"]);
    expect(schemas.RegistryDirector.properties).toHaveProperty("disqualified");
    expect(schemas.FiledFinancials.properties).toHaveProperty("turnover");
    expect(Object.keys(schemas.Vat.properties)).toEqual(["number", "valid", "checked_at", "source", "registered_name", "registered_address", "reason"]);
  });

  it("the partner Lead and the lender's market object both point at them", async () => {
    const partner = (await call("GET", "/partner/v1/openapi.json")).body.components.schemas;
    expect(JSON.stringify(partner.Lead.properties.business)).toContain("#/components/schemas/Registry");
    expect(JSON.stringify(partner.Lead.properties.business)).toContain("#/components/schemas/Vat");
    expect(JSON.stringify(partner.Lead.properties.timeline)).toContain("company_not_active");
    const lender = (await call("GET", "/v1/openapi.json")).body.components.schemas;
    expect(JSON.stringify(lender.DealMarketUK.properties.registry)).toContain("#/components/schemas/Registry");
    expect(JSON.stringify(lender.DealMarketUK.properties.vat)).toContain("#/components/schemas/Vat");
    expect(lender.DealMarketUS.properties).not.toHaveProperty("vat");
  });
});
