import { describe, expect, it } from "vitest";
import type { RegistryAvailable } from "../../src/domain/registers/types";
import { rechercheEntreprises } from "../../src/registers/sources/recherche-entreprises";
import { sirenOf } from "../../src/domain/registers/identity";
import { registerContext } from "./support/context";
import { registerFailureCases } from "./support/failures";

const lookup = (number: string, ctx: ReturnType<typeof registerContext>["ctx"]) => rechercheEntreprises.lookup({ country: "FR", company_number: number }, ctx);

describe("recherche-entreprises adapter (FR)", () => {
  it("turns the search result into the registry object, with the latest filed turnover", async () => {
    const { ctx, requests } = registerContext();
    const outcome = await lookup("356 000 000", ctx);
    const answer = outcome.answer as RegistryAvailable;
    expect(answer).toMatchObject({
      source: "official_register",
      status: "available",
      registered_name: "LA POSTE",
      incorporated_on: "1991-01-01",
      company_age_months: 430,
      company_status: "active",
      company_type: "5510",
      sic_codes: null,
      activity_codes: [{ scheme: "NAF rév. 2", code: "53.10Z", description: null, classification: "H" }],
      registered_office: { line1: "9 RUE DU COLONEL PIERRE AVIA", line2: null, locality: "PARIS", region: "11", postal_code: "75015", country: "FR" },
      directors: [
        {
          name: "PHILIPPE WAHL",
          role: "Président-directeur général",
          appointed_on: null,
          resigned_on: null,
          other_active_appointments: null,
          other_resigned_appointments: null,
          dissolved_companies: null,
          disqualified: null,
        },
      ],
      officers: [
        { name: "PHILIPPE WAHL", role: "Président-directeur général", appointed_on: null, resigned_on: null },
        { name: "KPMG S.A.", role: "Commissaire aux comptes titulaire", appointed_on: null, resigned_on: null },
      ],
      identifiers: { siren: "356000000", siret: "35600000000048" },
      has_insolvency_history: null,
      checked_at: "2026-11-23T12:00:00.000Z",
    });
    expect(answer.filed_financials).toMatchObject({ turnover: 27100000000, profit_loss: 462000000, basis: "filed_accounts" });
    expect(answer.sections?.finances).toEqual({ status: "available", data: { fiscal_year: "2024" } });
    const [call] = await requests();
    expect(call.path).toBe("/search");
    expect(new URLSearchParams(call.search).get("q")).toBe("356000000");
  });

  it("answers not_found when the search has no result for the SIREN", async () => {
    const { ctx } = registerContext();
    expect((await lookup("552100554", ctx)).answer).toEqual({ source: "official_register", status: "unavailable", reason: "not_found" });
  });

  it("reads a SIRET as its company's SIREN and refuses anything else without a call", async () => {
    expect(sirenOf("35600000000048")).toBe("356000000");
    expect(sirenOf("1234")).toBeNull();
    const { ctx, requests } = registerContext();
    expect((await lookup("ABC", ctx)).answer).toMatchObject({ reason: "not_found" });
    expect(await requests()).toEqual([]);
  });

  registerFailureCases((ctx) => lookup("356000000", ctx));
});
