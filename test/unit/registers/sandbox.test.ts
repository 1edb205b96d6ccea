import { describe, expect, it } from "vitest";
import { sourceContextFrom } from "../../../src/registers/context";
import { OTHER_MARKET_FIXTURES, sandboxRegisterSource, sandboxVatSource } from "../../../src/registers/sources/sandbox";

// The sandbox never calls anything: a context whose fetch throws proves it.
const ctx = sourceContextFrom({}, {
  fetch: () => {
    throw new Error("the sandbox called out");
  },
});
const lookup = (country: string, company_number: string) => sandboxRegisterSource.lookup({ country, company_number, us_state: null }, ctx);

describe("sandbox fixtures", () => {
  it("GB follows the decisions' table", async () => {
    expect((await lookup("GB", "00000001")).answer).toMatchObject({ status: "available", company_status: "active", filed_financials: { turnover: 1_250_000 } });
    expect((await lookup("GB", " 0000 0002 ")).answer).toMatchObject({ company_status: "dissolved" });
    expect((await lookup("GB", "00000003")).answer).toMatchObject({ has_insolvency_history: true });
    expect((await lookup("GB", "00000004")).answer).toMatchObject({ accounts: { overdue: true } });
    expect((await lookup("GB", "00000005")).answer).toMatchObject({ disqualified_directors_count: 1 });
    expect(await lookup("GB", "00000009")).toMatchObject({ answer: { status: "unavailable", reason: "timeout" }, retryable: true });
    expect(await lookup("GB", "SC123456")).toMatchObject({ answer: { status: "unavailable", reason: "not_found" }, retryable: false });
  });

  it.each(Object.entries(OTHER_MARKET_FIXTURES))("%s: active, not active, no answer, unknown", async (country, numbers) => {
    const active = (await lookup(country, numbers.active)).answer;
    expect(active).toMatchObject({ status: "available", company_status: "active" });
    expect(Object.values((active as any).identifiers)).toContain(numbers.active);
    expect((await lookup(country, numbers.notActive)).answer).toMatchObject({ status: "available", company_status: expect.not.stringMatching(/^active$/) });
    expect((await lookup(country, numbers.noAnswer)).answer).toMatchObject({ status: "unavailable", reason: "timeout" });
    expect((await lookup(country, "123")).answer).toMatchObject({ status: "unavailable", reason: "not_found" });
  });

  it("markets without a register answer as live does", async () => {
    expect((await lookup("US", "C1234567")).answer).toMatchObject({ status: "unavailable", reason: "not_available_in_state" });
    for (const country of ["CA", "IE", "NL", "BE", "DK", "SE"]) expect((await lookup(country, "12345678")).answer).toMatchObject({ status: "unavailable", reason: "unavailable" });
  });

  it("VAT: …1 valid, …2 not valid, …9 no answer, any other not registered; the market's prefix is assumed", async () => {
    expect((await sandboxVatSource("GB").check("GB100000001", ctx)).answer).toMatchObject({ number: "GB100000001", valid: true, registered_name: "Sandbox Trading Ltd", source: "vat_validation" });
    expect((await sandboxVatSource("GB").check("GB100000002", ctx)).answer).toMatchObject({ valid: false });
    expect(await sandboxVatSource("GB").check("gb 100 000 009", ctx)).toMatchObject({ answer: { valid: null, reason: "unavailable" }, retryable: true });
    expect((await sandboxVatSource("GB").check("GB999999973", ctx)).answer).toMatchObject({ valid: false });
    expect((await sandboxVatSource("IE").check("100000001", ctx)).answer).toMatchObject({ number: "IE100000001", valid: true, registered_name: "Sandbox Trading IE" });
    expect((await sandboxVatSource("FR").check("GB100000001", ctx)).answer).toMatchObject({ valid: false });
  });
});
