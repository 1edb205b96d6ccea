import { describe, expect, it } from "vitest";
import type { RegistryAvailable } from "../../src/domain/registers/types";
import { companiesHouse } from "../../src/registers/sources/companies-house";
import { gbCompanyNumber as normaliseCompanyNumber } from "../../src/domain/registers/identity";
import { comparableName } from "../../src/registers/sources/companies-house/directors";
import { credentials, registerContext } from "./support/context";
import { registerFailureCases } from "./support/failures";

const lookup = (number: string, ctx: ReturnType<typeof registerContext>["ctx"]) => companiesHouse.lookup({ country: "GB", company_number: number }, ctx);

describe("Companies House adapter", () => {
  it("turns the profile, officers, PSCs, filings, charges, registers and exemptions into the registry object", async () => {
    const { ctx, requests } = registerContext();
    const outcome = await lookup("1234567", ctx);
    expect(outcome.retryable).toBe(false);
    const answer = outcome.answer as RegistryAvailable;
    expect(answer).toMatchObject({
      source: "official_register",
      status: "available",
      registered_name: "HARBOUR LIGHT TRADING LIMITED",
      incorporated_on: "2019-03-14",
      company_age_months: 92,
      company_status: "active",
      company_type: "ltd",
      sic_codes: ["47910", "46900"],
      activity_codes: [
        { scheme: "UK SIC 2007", code: "47910", description: null, classification: null },
        { scheme: "UK SIC 2007", code: "46900", description: null, classification: null },
      ],
      registered_office: { line1: "12 Quayside Road", line2: "Harbour Estate", locality: "Bristol", region: "Avon", postal_code: "BS1 4AB", country: "England" },
      psc_count: 1,
      accounts: { next_due: "2026-09-30", overdue: false },
      confirmation_statement: { next_due: "2027-03-27", overdue: false },
      charges_count: 2,
      has_insolvency_history: false,
      filed_financials: null,
      share_capital: { amount: 1000, currency: "GBP" },
      registers: ["members"],
      exemptions: ["disclosure-transparency-rules-chapter-five-applies"],
      uk_establishments_count: null,
      disqualified_directors_count: 1,
      identifiers: null,
      business_description: null,
      checked_at: "2026-11-23T12:00:00.000Z",
    });
    expect(answer.directors).toEqual([
      {
        name: "SMITH, Jane Anne",
        role: "director",
        appointed_on: "2019-03-14",
        resigned_on: null,
        other_active_appointments: 1,
        other_resigned_appointments: 1,
        dissolved_companies: 1,
        disqualified: true,
      },
      {
        name: "JONES, Robert",
        role: "director",
        appointed_on: "2020-01-06",
        resigned_on: null,
        other_active_appointments: 0,
        other_resigned_appointments: 0,
        dissolved_companies: 0,
        // A disqualified Robert Jones exists, born in another month: not him.
        disqualified: false,
      },
    ]);
    expect(answer.officers).toEqual([
      { name: "SMITH, Jane Anne", role: "director", appointed_on: "2019-03-14", resigned_on: null },
      { name: "JONES, Robert", role: "director", appointed_on: "2020-01-06", resigned_on: null },
      { name: "PATEL, Priya", role: "secretary", appointed_on: "2019-03-14", resigned_on: null },
      { name: "BROWN, Alan", role: "director", appointed_on: "2019-03-14", resigned_on: "2021-08-31" },
    ]);
    expect(answer.filings?.[0]).toEqual({ type: "CS01", description: "confirmation-statement-with-no-updates", date: "2026-03-20", period_start: null, period_end: "2026-03-13" });
    expect(answer.filings).toHaveLength(4);
    expect(answer.sections?.charges).toEqual({ status: "available", data: { total_count: 2, satisfied_count: 1, part_satisfied_count: 0 } });
    expect(answer.sections?.company_profile.data).toMatchObject({ register: "companies_house", last_accounts: { made_up_to: "2024-12-31", type: "total-exemption-full" } });

    const calls = await requests();
    // Basic auth with the key as user name and an empty password, on every call.
    const basic = `Basic ${btoa(`${credentials.companiesHouseKey}:`)}`;
    expect(calls.every((c) => c.authorization === basic)).toBe(true);
    expect(calls.map((c) => c.path)).toEqual(
      expect.arrayContaining([
        "/company/01234567",
        "/company/01234567/officers",
        "/company/01234567/persons-with-significant-control",
        "/company/01234567/filing-history",
        "/company/01234567/charges",
        "/company/01234567/registers",
        "/company/01234567/exemptions",
        "/officers/JaneSmith0001/appointments",
        "/search/disqualified-officers",
        "/disqualified-officers/natural/DqJaneSmith75",
      ]),
    );
    // No insolvency link and no history: the insolvency resource is not asked for; resigned directors are not searched.
    expect(calls.some((c) => c.path.endsWith("/insolvency"))).toBe(false);
    expect(calls.some((c) => c.path.includes("AlanBrown"))).toBe(false);
  });

  it("reads the insolvency cases of a company in liquidation and leaves what the register does not hold null", async () => {
    const { ctx } = registerContext();
    const answer = (await lookup("07654321", ctx)).answer as RegistryAvailable;
    expect(answer).toMatchObject({
      company_status: "liquidation",
      has_insolvency_history: true,
      accounts: { next_due: "2024-09-30", overdue: true },
      charges_count: 0,
      // One corporate director (no date of birth): cannot be checked, so the count is unknown.
      directors: [expect.objectContaining({ name: "RECOVERY NOMINEES LIMITED", disqualified: null })],
      disqualified_directors_count: null,
      share_capital: null,
      registers: [],
      exemptions: [],
    });
    expect(answer.sections?.insolvency).toEqual({
      status: "available",
      data: { status: ["liquidation"], cases: [{ type: "creditors-voluntary-liquidation", dates: [{ date: "2024-10-01", type: "wound-up-on" }] }] },
    });
    // No PSC resource for this company: unknown, not zero.
    expect(answer.psc_count).toBeNull();
    expect(answer.sections?.persons_with_significant_control).toEqual({ status: "not_found", data: null });
  });

  it("answers not_found for a number the register does not hold, and for one that cannot be a company number", async () => {
    const { ctx, requests, logs } = registerContext();
    expect((await lookup("99999999", ctx)).answer).toEqual({ source: "official_register", status: "unavailable", reason: "not_found" });
    expect((await lookup("not a number!", ctx)).answer).toEqual({ source: "official_register", status: "unavailable", reason: "not_found" });
    expect((await requests()).map((c) => c.path)).toEqual(["/company/99999999"]);
    expect(logs).toEqual([]);
  });

  it("answers not_configured without calling anything when no API key is set", async () => {
    const { ctx, requests } = registerContext("ok", { env: { COMPANIES_HOUSE_API_KEY: undefined } });
    expect(await lookup("01234567", ctx)).toEqual({
      answer: { source: "official_register", status: "unavailable", reason: "not_configured" },
      retryable: false,
      retryAfterSeconds: null,
    });
    expect(await requests()).toEqual([]);
  });

  it("keeps the profile when a sub-resource fails, says which in sections, and marks the answer retryable", async () => {
    const { ctx } = registerContext("fail-officers");
    const outcome = await lookup("01234567", ctx);
    const answer = outcome.answer as RegistryAvailable;
    expect(answer.status).toBe("available");
    expect(answer.registered_name).toBe("HARBOUR LIGHT TRADING LIMITED");
    expect(answer.directors).toBeNull();
    expect(answer.officers).toBeNull();
    expect(answer.disqualified_directors_count).toBeNull();
    expect(answer.sections?.officers).toEqual({ status: "unavailable", data: null });
    expect(outcome.retryable).toBe(true);
  });

  it("passes on the Retry-After of a sub-resource that was rate limited", async () => {
    const { ctx } = registerContext("limit-filing-history");
    const outcome = await lookup("01234567", ctx);
    expect(outcome.answer).toMatchObject({ status: "available", filings: null, share_capital: null, sections: { filing_history: { status: "rate_limited", data: null } } });
    expect(outcome).toMatchObject({ retryable: true, retryAfterSeconds: 60 });
  });

  it("says a director's disqualification is unknown when the search does not answer", async () => {
    const { ctx } = registerContext("fail-disqualified-officers");
    const outcome = await lookup("01234567", ctx);
    const answer = outcome.answer as RegistryAvailable;
    expect(answer.directors?.map((d) => d.disqualified)).toEqual([null, null]);
    expect(answer.disqualified_directors_count).toBeNull();
    expect(answer.sections?.disqualifications.status).toBe("partial");
    expect(outcome.retryable).toBe(true);
  });

  registerFailureCases((ctx) => lookup("01234567", ctx));

  it("pads bare numbers to eight characters and keeps prefixed ones", () => {
    expect(normaliseCompanyNumber("1234567")).toBe("01234567");
    expect(normaliseCompanyNumber("sc 123456")).toBe("SC123456");
    expect(normaliseCompanyNumber("SC12345")).toBe("SC012345");
    expect(normaliseCompanyNumber("123456789")).toBeNull();
    expect(normaliseCompanyNumber("../x")).toBeNull();
  });

  it("compares officer-list and search-title names in one form", () => {
    expect(comparableName("SMITH, Jane Anne")).toBe("jane anne smith");
    expect(comparableName("Mrs Jane Anne SMITH")).toBe("jane anne smith");
  });
});
