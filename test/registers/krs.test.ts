import { describe, expect, it } from "vitest";
import type { RegistryAvailable } from "../../src/domain/registers/types";
import { krsRegister } from "../../src/registers/sources/krs";
import { krsNumberOf } from "../../src/domain/registers/identity";
import { registerContext } from "./support/context";
import { registerFailureCases } from "./support/failures";

const lookup = (number: string, ctx: ReturnType<typeof registerContext>["ctx"]) => krsRegister.lookup({ country: "PL", company_number: number }, ctx);

describe("KRS adapter (PL)", () => {
  it("turns the current extract into the registry object with KRS, NIP and REGON", async () => {
    const { ctx, requests } = registerContext();
    const answer = (await lookup("413516", ctx)).answer as RegistryAvailable;
    expect(answer).toMatchObject({
      status: "available",
      registered_name: "PRZYKŁADOWA SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ",
      incorporated_on: "2012-03-08",
      company_age_months: 176,
      company_status: "active",
      company_type: "SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ",
      activity_codes: [
        { scheme: "PKD 2007", code: "69.10.Z", description: "DZIAŁALNOŚĆ PRAWNICZA", classification: "primary" },
        { scheme: "PKD 2007", code: "69.20.Z", description: "DZIAŁALNOŚĆ RACHUNKOWO-KSIĘGOWA; DORADZTWO PODATKOWE", classification: "secondary" },
      ],
      registered_office: { line1: "UL. SZELĄGOWSKA 49", line2: null, locality: "POZNAŃ", region: "WIELKOPOLSKIE", postal_code: "61-626", country: "POLSKA" },
      // The live register masks natural persons' names (see live-shapes.test.ts).
      directors: [
        {
          name: null,
          name_masked: true,
          role: "PREZES ZARZĄDU",
          appointed_on: null,
          resigned_on: null,
          other_active_appointments: null,
          other_resigned_appointments: null,
          dissolved_companies: null,
          disqualified: null,
        },
      ],
      officers: [
        { name: null, name_masked: true, role: "PREZES ZARZĄDU", appointed_on: null, resigned_on: null },
        { name: null, name_masked: true, role: "PROKURA SAMOISTNA", appointed_on: null, resigned_on: null },
      ],
      has_insolvency_history: false,
      share_capital: { amount: 5000, currency: "PLN" },
      identifiers: { krs: "0000413516", nip: "9721237317", regon: "30204683000000" },
    });
    expect(answer.filings).toEqual([
      { type: "annual_financial_statements", description: "06.09.2011 R. - 31.12.2011 R.", date: "2012-03-02", period_start: "2011-09-06", period_end: "2011-12-31" },
      { type: "annual_financial_statements", description: "OD 01.01.2025 DO 31.12.2025", date: "2026-02-15", period_start: "2025-01-01", period_end: "2025-12-31" },
    ]);
    // The register masks PESEL numbers and names; nothing of them reaches the answer.
    expect(JSON.stringify(answer)).not.toContain("*");
    const [call] = await requests();
    expect(call.path).toBe("/api/krs/OdpisAktualny/0000413516");
    expect(Object.fromEntries(new URLSearchParams(call.search))).toEqual({ rejestr: "P", format: "json" });
  });

  it("reads bankruptcy proceedings in section 6 as insolvency", async () => {
    const { ctx } = registerContext();
    expect((await lookup("0000000777", ctx)).answer).toMatchObject({
      company_status: "insolvency-proceedings",
      has_insolvency_history: true,
      sections: { proceedings: { status: "available", data: { sections: ["postepowanieUpadlosciowe"] } } },
    });
  });

  it("answers not_found for a number the register has no entry for (204, no body), and for one that is not a KRS number", async () => {
    const { ctx, requests } = registerContext();
    expect((await lookup("0000000001", ctx)).answer).toEqual({ source: "official_register", status: "unavailable", reason: "not_found" });
    expect((await lookup("12345678901", ctx)).answer).toMatchObject({ reason: "not_found" });
    expect(krsNumberOf("KRS 413516")).toBe("0000413516");
    expect(await requests()).toHaveLength(1);
  });

  registerFailureCases((ctx) => lookup("0000413516", ctx));
});
