import type { RegisterQuery, RegistryAvailable } from "../../../domain/registers/types";
import { available, fromFailure, monthsSince, text } from "../../answer";
import type { SourceContext } from "../../context";
import { unavailable, type RegisterOutcome } from "../../outcome";
import type { RegisterSource } from "../../source";
import { getResource, SOURCE, type ChResult } from "./client";
import { directorOf, isDirectorRole } from "./directors";
import { activityCodesOf, addressOf, dueOf, filingOf, hasLink, insolvencyStatuses, shareCapitalOf } from "./map";
import {
  chargeList,
  companyProfile,
  exemptionsResource,
  filingHistory,
  insolvency,
  officerList,
  pscList,
  registersResource,
  ukEstablishments,
} from "./schemas";
import { gbCompanyNumber } from "../../../domain/registers/identity";

/**
 * GB: the Companies House public data API. The company profile decides
 * whether there is an answer at all; officers, persons with significant
 * control, filing history, charges, insolvency and the registers, exemptions
 * and UK establishments resources (the last five only when the profile links
 * them) fill the rest. A sub-resource that fails leaves its fields null and
 * says so in `sections`, and the outcome is marked retryable.
 *
 * Filed financial figures are not in the REST API (accounts are filed as
 * iXBRL documents), so `filed_financials` stays null.
 */


type Section = { status: string; data: unknown };
const sectionOf = <T>(result: ChResult<T>, data: (value: T) => unknown): Section =>
  result.ok ? { status: "available", data: data(result.value) } : { status: result.failure.reason, data: null };
const valueOf = <T, R>(result: ChResult<T> | null, pick: (value: T) => R): R | null => (result?.ok ? pick(result.value) : null);

async function lookup(query: RegisterQuery, ctx: SourceContext): Promise<RegisterOutcome> {
  const apiKey = ctx.config.companiesHouse.apiKey;
  if (!apiKey) return unavailable("not_configured");
  const number = gbCompanyNumber(query.company_number);
  if (!number) return unavailable("not_found");

  const profileResult = await getResource(ctx, apiKey, `/company/${number}`, "company_profile", companyProfile);
  if (!profileResult.ok) return fromFailure(profileResult.failure);
  const profile = profileResult.value;
  const base = `/company/${number}`;
  const get = <T extends Parameters<typeof getResource>[4]>(path: string, operation: string, schema: T) =>
    getResource(ctx, apiKey, `${base}${path}`, operation, schema);
  const when = <T>(condition: boolean | null | undefined, call: () => Promise<T>) => (condition ? call() : Promise.resolve(null));

  const [officers, pscs, filings, charges, insolvencyCases, registers, exemptions, establishments] = await Promise.all([
    get("/officers?items_per_page=100", "officers", officerList),
    get("/persons-with-significant-control?items_per_page=100", "persons_with_significant_control", pscList),
    get("/filing-history?items_per_page=100", "filing_history", filingHistory),
    when(profile.has_charges || hasLink(profile, "charges"), () => get("/charges", "charges", chargeList)),
    when(profile.has_insolvency_history, () => get("/insolvency", "insolvency", insolvency)),
    when(hasLink(profile, "registers"), () => get("/registers", "registers", registersResource)),
    when(hasLink(profile, "exemptions"), () => get("/exemptions", "exemptions", exemptionsResource)),
    when(hasLink(profile, "uk_establishments"), () => get("/uk-establishments", "uk_establishments", ukEstablishments)),
  ]);

  const officerItems = officers.ok ? officers.value.items : null;
  const currentDirectors = (officerItems ?? []).filter((o) => isDirectorRole(o.officer_role) && !o.resigned_on);
  const checked = officerItems ? await Promise.all(currentDirectors.map((o) => directorOf(ctx, apiKey, o, number))) : null;
  const directors = checked?.map((c) => c.director) ?? null;
  const disqualifiedKnown = directors !== null && directors.every((d) => d.disqualified !== null);
  // Only a check the register failed to answer is worth asking again; "cannot be checked" (a corporate director) and an uncertain match are answers.
  const disqualificationRetry = checked?.flatMap((c) => (c.unanswered ? [c.unanswered] : [])) ?? [];

  const sections: Record<string, Section> = {
    company_profile: {
      status: "available",
      data: {
        register: SOURCE,
        company_status_detail: text(profile.company_status_detail),
        jurisdiction: text(profile.jurisdiction),
        date_of_cessation: text(profile.date_of_cessation),
        has_been_liquidated: profile.has_been_liquidated ?? null,
        last_accounts: profile.accounts?.last_accounts ?? null,
        previous_company_names: profile.previous_company_names ?? [],
      },
    },
    officers: sectionOf(officers, (v) => ({ active_count: v.active_count ?? null, resigned_count: v.resigned_count ?? null })),
    persons_with_significant_control: sectionOf(pscs, (v) => ({ active_count: v.active_count ?? null, ceased_count: v.ceased_count ?? null })),
    filing_history: sectionOf(filings, (v) => ({ total_count: v.total_count ?? null })),
    disqualifications: directors === null
      ? { status: officers.ok ? "available" : officers.failure.reason, data: null }
      : {
          status: disqualifiedKnown ? "available" : "partial",
          data: {
            directors_checked: checked!.filter((c) => c.director.disqualified !== null).length,
            not_checkable: checked!.filter((c) => c.reason === "not_checkable").length,
            uncertain: checked!.filter((c) => c.reason === "uncertain_match").length,
            unanswered: disqualificationRetry.length,
          },
        },
  };
  if (charges) sections.charges = sectionOf(charges, (v) => ({ total_count: v.total_count ?? null, satisfied_count: v.satisfied_count ?? null, part_satisfied_count: v.part_satisfied_count ?? null }));
  if (insolvencyCases) sections.insolvency = sectionOf(insolvencyCases, (v) => ({ status: insolvencyStatuses(v.status), cases: v.cases.map((c) => ({ type: text(c.type), dates: c.dates ?? [] })) }));

  const facts: Partial<RegistryAvailable> = {
    registered_name: profile.company_name,
    incorporated_on: text(profile.date_of_creation),
    company_age_months: monthsSince(text(profile.date_of_creation), ctx.now()),
    company_status: text(profile.company_status),
    company_type: text(profile.type),
    sic_codes: profile.sic_codes ?? null,
    activity_codes: activityCodesOf(profile),
    registered_office: addressOf(profile.registered_office_address),
    directors,
    officers: officerItems?.map((o) => ({ name: o.name, role: text(o.officer_role), appointed_on: text(o.appointed_on), resigned_on: text(o.resigned_on) })) ?? null,
    psc_count: valueOf(pscs, (v) => v.active_count ?? v.items.filter((p) => !p.ceased_on && !p.ceased).length),
    accounts: dueOf(profile.accounts),
    confirmation_statement: dueOf(profile.confirmation_statement),
    // No charges link and has_charges false: the register holds none.
    charges_count: charges === null ? (profile.has_charges === false ? 0 : null) : valueOf(charges, (v) => v.total_count ?? v.items.length),
    has_insolvency_history: profile.has_insolvency_history ?? null,
    filings: valueOf(filings, (v) => v.items.map(filingOf)),
    share_capital: valueOf(filings, (v) => shareCapitalOf(v.items)),
    registers: registers === null ? [] : valueOf(registers, (v) => heldOnPublicRegister(v.registers)),
    exemptions: exemptions === null ? [] : valueOf(exemptions, (v) => exemptionsInForce(v.exemptions)),
    uk_establishments_count: establishments === null ? null : valueOf(establishments, (v) => v.items.length),
    disqualified_directors_count: directors !== null && disqualifiedKnown ? directors.filter((d) => d.disqualified).length : null,
    sections,
  };

  // A partial answer is still an answer; the caller may ask again for the parts that failed.
  const failures = [
    ...[officers, pscs, filings, charges, insolvencyCases, registers, exemptions, establishments].flatMap((r) => (r && !r.ok ? [r.failure] : [])),
    ...disqualificationRetry,
  ];
  const retryAfters = failures.map((f) => f.retryAfterSeconds).filter((s): s is number => s !== null);
  return {
    ...available(facts, ctx),
    retryable: failures.some((f) => f.retryable),
    retryAfterSeconds: retryAfters.length > 0 ? Math.max(...retryAfters) : null,
  };
}

/** Registers (members, directors…) whose latest entry says they are kept on the public register at Companies House. */
function heldOnPublicRegister(registers: Record<string, { register_type?: string | null; items: { register_moved_to?: string | null; moved_on?: string | null }[] }>): string[] {
  return Object.entries(registers)
    .filter(([, r]) => {
      const latest = [...r.items].sort((a, b) => (b.moved_on ?? "").localeCompare(a.moved_on ?? ""))[0];
      return latest?.register_moved_to === "public-register";
    })
    .map(([key, r]) => text(r.register_type) ?? key);
}

/** Exemptions with a period that has not ended. */
function exemptionsInForce(exemptions: Record<string, { exemption_type?: string | null; items: { exempt_to?: string | null }[] }>): string[] {
  return Object.entries(exemptions)
    .filter(([, e]) => e.items.some((item) => !item.exempt_to))
    .map(([key, e]) => text(e.exemption_type) ?? key);
}

export const companiesHouse: RegisterSource = { source: SOURCE, lookup };
