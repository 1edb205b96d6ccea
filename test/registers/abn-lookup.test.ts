import { describe, expect, it } from "vitest";
import type { RegistryAvailable } from "../../src/domain/registers/types";
import { abnLookup, unwrapJsonp } from "../../src/registers/sources/abn-lookup";
import { abnOf } from "../../src/domain/registers/identity";
import { credentials, registerContext } from "./support/context";
import { registerFailureCases } from "./support/failures";

const lookup = (number: string, ctx: ReturnType<typeof registerContext>["ctx"]) => abnLookup.lookup({ country: "AU", company_number: number }, ctx);

describe("ABN Lookup adapter (AU)", () => {
  it("unwraps the JSONP answer into the registry object", async () => {
    const { ctx, requests } = registerContext();
    const answer = (await lookup("33 102 417 032", ctx)).answer as RegistryAvailable;
    expect(answer).toMatchObject({
      status: "available",
      registered_name: "HARBOUR TRADING PTY LTD",
      incorporated_on: null,
      company_age_months: null,
      company_status: "active",
      company_type: "Australian Private Company",
      registered_office: { line1: null, line2: null, locality: null, region: "VIC", postal_code: "3000", country: "AU" },
      identifiers: { abn: "33102417032" },
      sections: {
        abn: { status: "available", data: { status: "Active", status_effective_from: "2002-10-15", entity_type_code: "PRV", acn: "102417032" } },
        gst: { status: "available", data: { registered: false, effective_from: null } },
        business_names: { status: "available", data: ["HARBOUR COFFEE", "HARBOUR COFFEE ROASTERS"] },
      },
    });
    const [call] = await requests();
    expect(call.path).toBe("/AbnDetails.aspx");
    expect(Object.fromEntries(new URLSearchParams(call.search))).toEqual({ abn: "33102417032", callback: "abnCallback", guid: credentials.abnGuid });
  });

  it("answers not_found when the register's message says the ABN is unknown", async () => {
    const { ctx } = registerContext();
    expect((await lookup("53004085616", ctx)).answer).toEqual({ source: "official_register", status: "unavailable", reason: "not_found" });
  });

  it("answers unavailable, not retryable, and logs when the GUID is refused", async () => {
    const { ctx, logs } = registerContext("ok", { env: { ABN_LOOKUP_GUID: "not-registered" } });
    expect(await lookup("33102417032", ctx)).toEqual({
      answer: { source: "official_register", status: "unavailable", reason: "unavailable" },
      retryable: false,
      retryAfterSeconds: null,
    });
    expect(logs).toEqual([{ source: "abn_lookup", operation: "abn_details", outcome: "guid_refused", status: 200 }]);
  });

  it("answers not_configured without a call when no GUID is set, and not_found without a call for a bad check digit", async () => {
    const unconfigured = registerContext("ok", { env: { ABN_LOOKUP_GUID: undefined } });
    expect((await lookup("33102417032", unconfigured.ctx)).answer).toMatchObject({ reason: "not_configured" });
    expect(await unconfigured.requests()).toEqual([]);
    const configured = registerContext();
    expect((await lookup("11111111111", configured.ctx)).answer).toMatchObject({ reason: "not_found" });
    expect(await configured.requests()).toEqual([]);
  });

  it("checks the ABN check digit and unwraps only a JSONP call", () => {
    expect(abnOf("51 824 753 556")).toBe("51824753556");
    expect(abnOf("51824753557")).toBeNull();
    expect(unwrapJsonp('abnCallback({"Abn":"1"})')).toEqual({ Abn: "1" });
    expect(() => unwrapJsonp('{"Abn":"1"}')).toThrow();
  });

  registerFailureCases((ctx) => lookup("33102417032", ctx));
});
