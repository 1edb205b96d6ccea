import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { person } from "../leads/helpers";
import { expectProblem, partnerWithKeys } from "../helpers/seed";

/**
 * A value of the wrong type is named as such ("must be a string (text)"), with its field;
 * "is required" is only for a field that is absent. [label, body, field, message]
 */
const WRONG_TYPES: [string, unknown, string, RegExp][] = [
  ["a number for a string", { country: "GB", business: { name: 5 } }, "business.name", /^business\.name must be a string \(text\); received a number\.$/],
  ["a boolean for a string", { country: "GB", business: { name: true } }, "business.name", /^business\.name must be a string \(text\); received a boolean\.$/],
  ["an array for a string", { country: "GB", business: { name: [] } }, "business.name", /^business\.name must be a string \(text\); received an array\.$/],
  ["an object for a string", { country: "GB", business: { name: {} } }, "business.name", /^business\.name must be a string \(text\); received an object\.$/],
  ["null for a string that may not be null", { country: "GB", significant_persons: [person({ full_name: null })] }, "significant_persons.0.full_name", /^significant_persons\.0\.full_name must be a string \(text\); received null\.$/],
  ["a string for a number", { country: "GB", funding: { amount: "5000" } }, "funding.amount", /^funding\.amount must be a number; received a string\.$/],
  ["a boolean for a number", { country: "GB", trading: { tib_months: false } }, "trading.tib_months", /^trading\.tib_months must be a number; received a boolean\.$/],
  ["a string for a boolean", { country: "GB", consent: { obtained: "yes" } }, "consent.obtained", /^consent\.obtained must be true or false \(a boolean\); received a string\.$/],
  ["a number for a boolean", { country: "GB", consent: { obtained: 1 } }, "consent.obtained", /^consent\.obtained must be true or false \(a boolean\); received a number\.$/],
  ["an object for an array", { country: "GB", significant_persons: { full_name: "x" } }, "significant_persons", /^significant_persons must be an array \(a list\); received an object\.$/],
  ["a string for an object", { country: "GB", business: "Widgets Ltd" }, "business", /^business must be an object; received a string\.$/],
  ["an array for an object", { country: "GB", funding: [] }, "funding", /^funding must be an object; received an array\.$/],
  ["a number for a person's name", { country: "GB", significant_persons: [person({ full_name: 7 })] }, "significant_persons.0.full_name", /^significant_persons\.0\.full_name must be a string \(text\); received a number\.$/],
];

const ABSENT: [string, unknown, string][] = [
  ["a person without a name", { country: "GB", significant_persons: [person({ full_name: undefined })] }, "significant_persons.0.full_name"],
  ["an address without line1", { country: "GB", significant_persons: [person({ residential_address: { postal_code: "SW1A 1AA" } })] }, "significant_persons.0.residential_address.line1"],
];

describe("POST /partner/v1/leads names a value of the wrong type", () => {
  it.each(WRONG_TYPES)("%s", async (_label, body, field, message) => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
    // The first problem is the one named; the detail leads with its message.
    const first = (res.body.errors ?? res.body.error.errors)[0];
    expect(first.field).toBe(field);
    expect(first.message).toMatch(message);
    expect(res.body.message.startsWith(first.message)).toBe(true);
    expect(res.body.message).not.toMatch(/required/);
  });

  it.each(ABSENT)("%s is required", async (_label, body, field) => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/leads", { key: sandbox.key, body });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
    expect(res.body.message).toBe(`${field} is required.`);
  });
});
