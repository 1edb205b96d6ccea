import { describe, expect, it } from "vitest";
import { companyIdentity, REGISTER_NUMBER_RULES } from "../../../src/domain/registers/identity";
import { MARKETS } from "../../../src/domain/reference/markets";

/** Per market: ways people type one number, the key they share, and a number that must not share it. */
const FIXTURES: Record<string, { typed: string[]; key: string; other: string }> = {
  GB: { typed: ["SC12345", "sc 012345", " SC012345 "], key: "GB:register:SC012345", other: "SC012346" },
  IE: { typed: ["123456", "CRO 123456", "0123456"], key: "IE:register:123456", other: "123457" },
  FR: { typed: ["552 100 554", "55210055400013", "552.100.554"], key: "FR:register:552100554", other: "552100555" },
  PL: { typed: ["25237", "0000025237", "KRS 0000025237"], key: "PL:register:0000025237", other: "0000025238" },
  AU: { typed: ["53 004 085 616", "53004085616"], key: "AU:register:53004085616", other: "51824753556" },
  NL: { typed: ["1234567", "01234567", "KvK 0123 4567"], key: "NL:register:01234567", other: "01234568" },
  BE: { typed: ["0123.456.789", "BE0123456789", "123456789"], key: "BE:register:0123456789", other: "0123456780" },
  DK: { typed: ["12345678", "DK 12 34 56 78"], key: "DK:register:12345678", other: "12345679" },
  SE: { typed: ["556677-8899", "5566778899", "16556677-8899"], key: "SE:register:5566778899", other: "5566778898" },
  CA: { typed: ["123456789", "123456789RT0001", "123 456 789 RC0001"], key: "CA:register:123456789", other: "123456780" },
  US: { typed: ["C1234567", "c-1234567", "C 1234567"], key: "US:register:C1234567", other: "C1234568" },
};

describe("one identity per company: the register number normalised per market", () => {
  it("every market with a register number has a rule and a fixture; Spain has neither", () => {
    const withNumber = MARKETS.filter((m) => m.register_number_label !== null).map((m) => m.country).sort();
    expect(Object.keys(REGISTER_NUMBER_RULES).sort()).toEqual(withNumber);
    expect(Object.keys(FIXTURES).sort()).toEqual(withNumber);
  });

  it.each(Object.entries(FIXTURES))("%s: every typing of a number shares one key, another number does not", (country, { typed, key, other }) => {
    for (const number of typed) expect(companyIdentity(country, number, null), number).toEqual({ key, kind: "register" });
    expect(companyIdentity(country, other, null)?.key).not.toBe(key);
  });

  it("a number a rule cannot read is compared in its compact form", () => {
    expect(companyIdentity("GB", "abc 123 456 789", null)).toEqual({ key: "GB:register:ABC123456789", kind: "register" });
    expect(companyIdentity("GB", "abc123-456789", null)?.key).toBe("GB:register:ABC123456789");
  });

  it("ES: no register number; the CIF in the VAT number is the key, with or without ES", () => {
    for (const vat of ["ESB12345678", "es b-1234567-8", "B12345678"]) expect(companyIdentity("ES", null, vat)).toEqual({ key: "ES:vat:ESB12345678", kind: "vat" });
  });

  it("the VAT number is the second key, only where there is no register number", () => {
    expect(companyIdentity("GB", null, "gb 100 000 001")).toEqual({ key: "GB:vat:GB100000001", kind: "vat" });
    expect(companyIdentity("GB", "00000001", "GB100000001")).toEqual({ key: "GB:register:00000001", kind: "register" });
    expect(companyIdentity("GB", "  ", null)).toBeNull();
    expect(companyIdentity("GB", null, null)).toBeNull();
  });
});
