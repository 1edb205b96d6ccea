/**
 * Issue 22: the registers as the live services answer them. Each case runs an
 * adapter against the stand-in (test/registers/support/register-server.mjs)
 * serving the live shape; where each shape comes from is noted there and in
 * docs/registers.md ("Live shapes").
 */
import { describe, expect, it } from "vitest";
import type { RegistryAvailable } from "../../src/domain/registers/types";
import { sourceContextFrom } from "../../src/registers/context";
import { sandboxRegisterSource } from "../../src/registers/sources/sandbox";
import { companiesHouse } from "../../src/registers/sources/companies-house";
import { gbCompanyNumber as normaliseCompanyNumber } from "../../src/domain/registers/identity";
import { hmrcVat } from "../../src/registers/sources/hmrc-vat";
import { krsRegister } from "../../src/registers/sources/krs";
import { rechercheEntreprises } from "../../src/registers/sources/recherche-entreprises";
import { viesFor } from "../../src/registers/sources/vies";
import { registerContext } from "./support/context";

type Ctx = ReturnType<typeof registerContext>["ctx"];
const ch = (number: string, ctx: Ctx) => companiesHouse.lookup({ country: "GB", company_number: number }, ctx);
const vies = (country: string) => viesFor(country)!;

describe("1. VIES: only VALID/INVALID (and INVALID_INPUT) are answers", () => {
  it.each([
    ["PL", "PL5260250995", "userError MS_MAX_CONCURRENT_REQ_TIME beside isValid false", "rate_limited"],
    ["DK", "DK22222222", "errorWrappers GLOBAL_MAX_CONCURRENT_REQ_TIME", "rate_limited"],
    ["SE", "SE556000000001", "errorWrappers MS_MAX_CONCURRENT_REQ", "rate_limited"],
    ["FR", "FR40303265045", "userError IP_BLOCKED beside isValid false", "unavailable"],
    ["DK", "DK11111111", "userError MS_UNAVAILABLE", "unavailable"],
  ])("%s %s (%s) is not answered: valid null, reason %s, retried", async (country, number, _shape, reason) => {
    const { ctx } = registerContext();
    expect(await vies(country).check(number, ctx)).toEqual({
      answer: { number, valid: null, checked_at: null, source: "vat_validation", registered_name: null, registered_address: null, reason },
      retryable: true,
      retryAfterSeconds: null,
    });
  });

  it("INVALID_INPUT (errorWrappers) is an answer: not valid, not retried", async () => {
    const { ctx } = registerContext();
    expect(await vies("NL").check("NL999999999B99", ctx)).toMatchObject({ answer: { valid: false, reason: null }, retryable: false });
  });
});

describe("2. Companies House insolvency status arrives as an array", () => {
  it("reads the live array (and keeps the cases)", async () => {
    const { ctx } = registerContext();
    const answer = (await ch("07654321", ctx)).answer as RegistryAvailable;
    expect(answer.sections?.insolvency).toEqual({
      status: "available",
      data: { status: ["liquidation"], cases: [{ type: "creditors-voluntary-liquidation", dates: [{ date: "2024-10-01", type: "wound-up-on" }] }] },
    });
  });
});

describe("3. KRS masks natural persons' names", () => {
  it("a masked name is null with name_masked, never asterisks; nazwiskoIICzlon is read", async () => {
    const { ctx } = registerContext();
    const answer = (await krsRegister.lookup({ country: "PL", company_number: "413516" }, ctx)).answer as RegistryAvailable;
    expect(answer.directors).toEqual([
      { name: null, name_masked: true, role: "PREZES ZARZĄDU", appointed_on: null, resigned_on: null, other_active_appointments: null, other_resigned_appointments: null, dissolved_companies: null, disqualified: null },
    ]);
    // The proxy's second surname part (nazwiskoIICzlon) is masked: the whole name is not a fact.
    expect(answer.officers).toEqual([
      { name: null, name_masked: true, role: "PREZES ZARZĄDU", appointed_on: null, resigned_on: null },
      { name: null, name_masked: true, role: "PROKURA SAMOISTNA", appointed_on: null, resigned_on: null },
    ]);
    expect(answer.sections?.management_board.data).toMatchObject({ members: 1, names_masked: 1 });
    expect(JSON.stringify(answer)).not.toContain("*");
  });
});

describe("4. recherche-entreprises [NON-DIFFUSIBLE]", () => {
  it("names, addresses and directors marked [NON-DIFFUSIBLE] are not disclosed (null)", async () => {
    const { ctx } = registerContext();
    const answer = (await rechercheEntreprises.lookup({ country: "FR", company_number: "899999999" }, ctx)).answer as RegistryAvailable;
    expect(answer).toMatchObject({
      status: "available",
      registered_name: null,
      company_status: "active",
      registered_office: { line1: null, line2: null, locality: null, postal_code: null, region: "11", country: "FR" },
      directors: [],
      officers: [],
    });
    expect(JSON.stringify(answer)).not.toContain("DIFFUSIBLE");
  });
});

describe("5. KRS 204", () => {
  it("a 204 with no body is not_found, not unavailable", async () => {
    const { ctx, logs } = registerContext();
    expect(await krsRegister.lookup({ country: "PL", company_number: "0000000001" }, ctx)).toEqual({
      answer: { source: "official_register", status: "unavailable", reason: "not_found" },
      retryable: false,
      retryAfterSeconds: null,
    });
    expect(logs).toEqual([]);
  });
});

describe("6. a corporate director", () => {
  it("cannot be checked: disqualified null, and the answer is complete (not retried)", async () => {
    const { ctx, requests } = registerContext();
    const outcome = await ch("07654321", ctx);
    const answer = outcome.answer as RegistryAvailable;
    expect(answer.directors).toEqual([expect.objectContaining({ name: "RECOVERY NOMINEES LIMITED", role: "corporate-director", disqualified: null })]);
    expect(answer.sections?.disqualifications).toEqual({ status: "partial", data: { directors_checked: 0, not_checkable: 1, uncertain: 0, unanswered: 0 } });
    expect(outcome.retryable).toBe(false);
    // Nothing is searched for a director who cannot be matched.
    expect((await requests()).some((r) => r.path.startsWith("/search/"))).toBe(false);
  });
});

describe("7. Companies House 429", () => {
  it("honours X-Ratelimit-Reset when no Retry-After is sent", async () => {
    const { ctx } = registerContext("rate-limited");
    expect(await ch("01234567", ctx)).toEqual({
      answer: { source: "official_register", status: "unavailable", reason: "rate_limited" },
      retryable: true,
      retryAfterSeconds: 120,
    });
  });
});

describe("8. disqualification matching", () => {
  it("reads every page of the search, and says null where the match is not certain", async () => {
    const { ctx, requests } = registerContext();
    const outcome = await ch("02345678", ctx);
    const answer = outcome.answer as RegistryAvailable;
    expect(answer.directors?.map((d) => [d.name, d.disqualified])).toEqual([
      // The disqualified David Taylor born in May 1980 is result 101, on the second page.
      ["TAYLOR, David", true],
      // Only a "Mary EVANS" born in the same month: maybe her, so unknown, not "no".
      ["EVANS, Mary Jane", null],
    ]);
    expect(answer.disqualified_directors_count).toBeNull();
    expect(answer.sections?.disqualifications.data).toMatchObject({ uncertain: 1, unanswered: 0 });
    // An uncertain match is an answer: asking again would not change it.
    expect(outcome.retryable).toBe(false);
    const searches = (await requests()).filter((r) => r.path === "/search/disqualified-officers").map((r) => new URLSearchParams(r.search));
    expect(searches.filter((p) => p.get("q") === "david taylor").map((p) => p.get("start_index"))).toEqual(["0", "100"]);
  });
});

describe("9. an incomplete capital entry", () => {
  it("is dropped; filings, share capital and the section stay", async () => {
    const { ctx } = registerContext();
    const answer = (await ch("02345678", ctx)).answer as RegistryAvailable;
    expect(answer.filings).toHaveLength(4);
    expect(answer.share_capital).toEqual({ amount: 2500, currency: "GBP" });
    expect(answer.sections?.filing_history).toEqual({ status: "available", data: { total_count: 4 } });
  });
});

describe("10. SC12345", () => {
  it("is padded after its prefix before the call", async () => {
    expect(normaliseCompanyNumber("SC12345")).toBe("SC012345");
    expect(normaliseCompanyNumber("ni 1234")).toBe("NI001234");
    expect(normaliseCompanyNumber("SC123456")).toBe("SC123456");
    const { ctx, requests } = registerContext();
    await ch("SC12345", ctx);
    expect((await requests())[0].path).toBe("/company/SC012345");
  });
});

describe("11. XI and old Belgian numbers", () => {
  it("an XI number is checked at HMRC like GB", async () => {
    const { ctx, requests } = registerContext();
    expect((await hmrcVat.check("XI 553 5578 81", ctx)).answer).toMatchObject({ number: "XI553557881", valid: true, registered_name: "Credite Sberger Donal Inc." });
    expect((await requests()).map((r) => r.path)).toContain("/organisations/vat/check-vat-number/lookup/553557881");
  });

  it("a 9-digit Belgian number gets its leading 0 before VIES", async () => {
    const { ctx, requests } = registerContext();
    expect((await vies("BE").check("BE 403.170.701", ctx)).answer).toMatchObject({ number: "BE0403170701", valid: true, registered_name: "SA VOORBEELD NV" });
    expect((await requests()).map((r) => r.path)).toEqual(["/ms/BE/vat/0403170701"]);
  });
});

describe("13. the sandbox reads numbers and words as live does", () => {
  const ctx = sourceContextFrom({}, { fetch: () => Promise.reject(new Error("the sandbox called out")) });
  const lookup = (country: string, company_number: string) => sandboxRegisterSource.lookup({ country, company_number, us_state: null }, ctx);

  it("pads GB and PL numbers (1 → 00000001, 0000000001)", async () => {
    expect((await lookup("GB", "1")).answer).toMatchObject({ status: "available", registered_name: "SANDBOX TRADING LTD" });
    expect((await lookup("GB", "9")).answer).toMatchObject({ status: "unavailable", reason: "timeout" });
    expect((await lookup("PL", "1")).answer).toMatchObject({ status: "available", identifiers: { krs: "0000000001" } });
  });

  it("uses the live adapters' status and country words", async () => {
    expect((await lookup("PL", "2")).answer).toMatchObject({ company_status: "liquidation", registered_office: { country: "POLSKA" } });
    expect((await lookup("FR", "100000001")).answer).toMatchObject({ registered_office: { country: "FR" } });
    expect((await lookup("AU", "10000000001")).answer).toMatchObject({ registered_office: { country: "AU" } });
  });
});

describe("15. User-Agent", () => {
  it("every register call names the service", async () => {
    const { ctx, requests } = registerContext();
    await ch("01234567", ctx);
    await hmrcVat.check("GB553557881", ctx);
    await vies("IE").check("IE6388047V", ctx);
    await rechercheEntreprises.lookup({ country: "FR", company_number: "356000000" }, ctx);
    await krsRegister.lookup({ country: "PL", company_number: "413516" }, ctx);
    const calls = await requests();
    expect(new Set(calls.map((c) => c.service))).toEqual(new Set(["companies-house", "hmrc", "vies", "fr", "krs"]));
    for (const call of calls) expect(call.userAgent).toMatch(/^referral-funding-service\/\S+ \(/);
  });
});
