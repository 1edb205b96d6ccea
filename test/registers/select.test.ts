import { describe, expect, it } from "vitest";
import type { RegistryAvailable } from "../../src/domain/registers/types";
import { MARKETS, marketFor } from "../../src/domain/reference/markets";
import { parseRetryAfter } from "../../src/registers/http";
import { registerSourceFor, vatSourceFor } from "../../src/registers/sources/select";
import { registerContext } from "./support/context";

describe("register and VAT source selection", () => {
  it("connects GB, FR, PL and AU to their registers", () => {
    expect(registerSourceFor("GB").source).toBe("companies_house");
    expect(registerSourceFor("uk").source).toBe("companies_house");
    expect(registerSourceFor("FR").source).toBe("recherche_entreprises");
    expect(registerSourceFor("PL").source).toBe("krs");
    expect(registerSourceFor("AU").source).toBe("abn_lookup");
  });

  it("answers not_available_in_state for every US state, without a call", async () => {
    const { ctx, requests } = registerContext();
    for (const state of ["DE", "CA", null]) {
      expect(await registerSourceFor("US", state).lookup({ country: "US", company_number: "1234567", us_state: state }, ctx)).toEqual({
        answer: { source: "official_register", status: "unavailable", reason: "not_available_in_state" },
        retryable: false,
        retryAfterSeconds: null,
      });
    }
    expect(await requests()).toEqual([]);
  });

  it("answers unavailable, not retryable, for a market with no connected register", async () => {
    const { ctx } = registerContext();
    for (const country of ["CA", "IE", "ES", "NL", "BE", "DK", "SE"]) {
      expect(await registerSourceFor(country).lookup({ country, company_number: "123" }, ctx)).toEqual({
        answer: { source: "official_register", status: "unavailable", reason: "unavailable" },
        retryable: false,
        retryAfterSeconds: null,
      });
    }
  });

  it("has a VAT source exactly where the market table says a VAT register is checked", () => {
    for (const market of MARKETS) expect(vatSourceFor(market.country) !== null, market.country).toBe(market.vat_checked);
    expect(vatSourceFor("GB")?.source).toBe("hmrc_vat");
    expect(vatSourceFor("FR")?.source).toBe("vies");
  });

  it("looks up through the market's source and checks VAT only where a VAT register is checked", async () => {
    const { ctx } = registerContext();
    expect((await registerSourceFor("GB").lookup({ country: "GB", company_number: "99999999" }, ctx)).answer).toMatchObject({ reason: "not_found" });
    expect(vatSourceFor("US")).toBeNull();
    expect((await vatSourceFor("IE")!.check("IE6388047V", ctx)).answer.valid).toBe(true);
  });

  it("gives identifiers only with the keys the market has", async () => {
    const { ctx } = registerContext();
    const known = { GB: "01234567", FR: "356000000", PL: "0000413516", AU: "33102417032" };
    for (const [country, number] of Object.entries(known)) {
      const answer = (await registerSourceFor(country).lookup({ country, company_number: number }, ctx)).answer as RegistryAvailable;
      expect(answer.status, country).toBe("available");
      const keys = Object.keys(answer.identifiers ?? {});
      expect(keys.every((k) => marketFor(country).identifier_keys.includes(k)), `${country}: ${keys.join(",")}`).toBe(true);
    }
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Mon, 23 Nov 2026 12:05:00 GMT", now)).toBe(300);
    expect(parseRetryAfter("Mon, 23 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
