/**
 * The sandbox's registers: fixed answers keyed by number, so integrators can
 * script against them. Sandbox leads are only ever looked up here; nothing in
 * this file calls the outside world.
 *
 * GB company numbers and GB VAT numbers follow the fixture table of the
 * product decisions ("Company registers and VAT"). The other markets follow
 * the same pattern, documented in docs/registers.md: a number ending in 1 is a
 * complete active company, 2 a company that is not active, 9 a register that
 * does not answer, anything else one the register does not know.
 */
import type { RegisterQuery, RegistryDirector } from "../../domain/registers/types";
import { available, monthsSince } from "../answer";
import type { SourceContext } from "../context";
import { unavailable, type RegisterOutcome, type VatOutcome } from "../outcome";
import type { RegisterSource, VatSource } from "../source";
import { vatChecked, vatUnanswered } from "../vat";
import { gbCompanyNumber as normaliseCompanyNumber, krsNumberOf } from "../../domain/registers/identity";

type Facts = Parameters<typeof available>[0];

const director = (name: string, appointed_on: string, overrides: Partial<RegistryDirector> = {}): RegistryDirector => ({
  name,
  role: "director",
  appointed_on,
  resigned_on: null,
  other_active_appointments: 0,
  other_resigned_appointments: 0,
  dissolved_companies: 0,
  disqualified: false,
  ...overrides,
});

const officersOf = (directors: RegistryDirector[]) =>
  directors.map((d) => ({ name: d.name, role: d.role, appointed_on: d.appointed_on, resigned_on: d.resigned_on }));

const section = (data: unknown) => ({ status: "available", data });

/** GB `00000001`: the complete active private limited company every other GB fixture varies. */
function gbActiveCompany(now: Date): Facts {
  const directors = [director("SANDBOX, Alice Jane", "2019-03-14"), director("EXAMPLE, Robert", "2021-06-01")];
  return {
    registered_name: "SANDBOX TRADING LTD",
    incorporated_on: "2019-03-14",
    company_age_months: monthsSince("2019-03-14", now),
    company_status: "active",
    company_type: "ltd",
    sic_codes: ["47910"],
    activity_codes: [{ scheme: "UK SIC 2007", code: "47910", description: "Retail sale via mail order houses or via Internet", classification: null }],
    registered_office: { line1: "1 Sandbox Street", line2: null, locality: "London", region: null, postal_code: "EC1A 1AA", country: "United Kingdom" },
    directors,
    officers: officersOf(directors),
    psc_count: 1,
    accounts: { next_due: "2027-09-30", overdue: false },
    confirmation_statement: { next_due: "2027-03-28", overdue: false },
    charges_count: 0,
    has_insolvency_history: false,
    filed_financials: {
      period_start: "2025-01-01",
      period_end: "2025-12-31",
      turnover: 1_250_000,
      gross_profit: 500_000,
      operating_profit: 150_000,
      profit_loss: 120_000,
      equity: 400_000,
      net_assets: 400_000,
      net_current_assets: 180_000,
      cash: 210_000,
      current_liabilities: 160_000,
      average_employees: 12,
      accounts_type: "full",
      basis: "filed_accounts",
    },
    filings: [
      { type: "AA", description: "accounts-with-accounts-type-full", date: "2026-06-15", period_start: "2025-01-01", period_end: "2025-12-31" },
      { type: "CS01", description: "confirmation-statement-with-no-updates", date: "2026-03-20", period_start: null, period_end: "2026-03-14" },
      { type: "NEWINC", description: "incorporation-company", date: "2019-03-14", period_start: null, period_end: null },
    ],
    share_capital: { amount: 100, currency: "GBP" },
    registers: [],
    exemptions: [],
    uk_establishments_count: 0,
    disqualified_directors_count: 0,
    identifiers: { vat_number: "GB100000001" },
    business_description: null,
    sections: {
      company_profile: section({ register: "sandbox", company_status_detail: null, jurisdiction: "england-wales" }),
      officers: section({ active_count: 2, resigned_count: 0 }),
      persons_with_significant_control: section({ active_count: 1, ceased_count: 0 }),
      filing_history: section({ total_count: 3 }),
      disqualifications: section({ directors_checked: 2 }),
    },
  };
}

/** The GB fixture table, each a variation of `00000001`. */
const GB_FIXTURES: Record<string, (now: Date) => Facts> = {
  "00000001": gbActiveCompany,
  "00000002": (now) => ({ ...gbActiveCompany(now), registered_name: "SANDBOX DISSOLVED LTD", company_status: "dissolved" }),
  "00000003": (now) => ({ ...gbActiveCompany(now), registered_name: "SANDBOX INSOLVENCY HISTORY LTD", has_insolvency_history: true }),
  "00000004": (now) => ({ ...gbActiveCompany(now), registered_name: "SANDBOX OVERDUE LTD", accounts: { next_due: "2026-09-30", overdue: true } }),
  "00000005": (now) => {
    const base = gbActiveCompany(now);
    const directors = [director("SANDBOX, Alice Jane", "2019-03-14"), director("EXAMPLE, Robert", "2021-06-01", { disqualified: true, dissolved_companies: 2 })];
    return { ...base, registered_name: "SANDBOX DISQUALIFIED DIRECTOR LTD", directors, officers: officersOf(directors), disqualified_directors_count: 1 };
  },
};

/** FR (SIREN), PL (KRS), AU (ABN): an active company and one that is not, by market. */
function otherMarketCompany(country: string, number: string, now: Date, active: boolean): Facts | null {
  const common = { company_age_months: monthsSince("2018-05-02", now), incorporated_on: "2018-05-02", directors: null, psc_count: null, charges_count: null, has_insolvency_history: null, filed_financials: null, filings: null, registers: null, exemptions: null, uk_establishments_count: null, disqualified_directors_count: null, sections: null };
  switch (country) {
    case "FR":
      return {
        ...common,
        registered_name: "SANDBOX COMMERCE SAS",
        company_status: active ? "active" : "ceased",
        company_type: "Société par actions simplifiée",
        sic_codes: null,
        activity_codes: [{ scheme: "NAF rév. 2", code: "47.91A", description: "Vente à distance sur catalogue général", classification: null }],
        registered_office: { line1: "1 rue du Bac à Sable", line2: null, locality: "Paris", region: null, postal_code: "75001", country: "FR" },
        officers: [{ name: "Camille Exemple", role: "Président de SAS", appointed_on: null, resigned_on: null }],
        share_capital: { amount: 10_000, currency: "EUR" },
        identifiers: { siren: number, siret: `${number}00011`, vat_number: `FR00${number}` },
        business_description: null,
      };
    case "PL":
      return {
        ...common,
        registered_name: "SANDBOX HANDEL SP. Z O.O.",
        // The live KRS adapter's vocabulary (src/registers/sources/krs.ts).
        company_status: active ? "active" : "liquidation",
        company_type: "SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ",
        sic_codes: null,
        activity_codes: [{ scheme: "PKD 2007", code: "47.91.Z", description: "Sprzedaż detaliczna prowadzona przez domy sprzedaży wysyłkowej lub internet", classification: "primary" }],
        registered_office: { line1: "ul. Piaskownica 1", line2: null, locality: "Warszawa", region: "MAZOWIECKIE", postal_code: "00-001", country: "POLSKA" },
        officers: [{ name: "Jan Przykładowy", role: "Prezes Zarządu", appointed_on: null, resigned_on: null }],
        share_capital: { amount: 5_000, currency: "PLN" },
        identifiers: { krs: number, nip: "1000000001", regon: "100000001", vat_number: "PL1000000001" },
        business_description: null,
      };
    case "AU":
      return {
        ...common,
        registered_name: "SANDBOX TRADING PTY LTD",
        company_status: active ? "active" : "cancelled",
        company_type: "Australian Private Company",
        sic_codes: null,
        activity_codes: null,
        registered_office: { line1: null, line2: null, locality: null, region: "NSW", postal_code: "2000", country: "AU" },
        officers: null,
        share_capital: null,
        identifiers: { abn: number },
        business_description: null,
      };
    default:
      return null;
  }
}

/** Fixture numbers of the markets beyond GB: `…1` active, `…2` not active, `…9` no answer. */
export const OTHER_MARKET_FIXTURES: Record<string, { active: string; notActive: string; noAnswer: string }> = {
  FR: { active: "100000001", notActive: "100000002", noAnswer: "100000009" },
  PL: { active: "0000000001", notActive: "0000000002", noAnswer: "0000000009" },
  AU: { active: "10000000001", notActive: "10000000002", noAnswer: "10000000009" },
};

const compact = (value: string) => value.replace(/[\s.\-]+/g, "").toUpperCase();

/** Markets with no register source in the sandbox either answer as live would: nothing to ask. */
const noSourceAnswer = (query: RegisterQuery) => unavailable(query.country === "US" ? "not_available_in_state" : "unavailable");

async function lookup(query: RegisterQuery, ctx: SourceContext): Promise<RegisterOutcome> {
  // Numbers are read as the live adapters read them: `1` is GB `00000001`, PL `0000000001`.
  const given = compact(query.company_number);
  const number = (query.country === "GB" ? normaliseCompanyNumber(given) : query.country === "PL" ? krsNumberOf(given) : given) ?? given;
  const now = ctx.now();
  if (query.country === "GB") {
    if (number === "00000009") return unavailable("timeout", { retryable: true, retryAfterSeconds: null });
    const fixture = GB_FIXTURES[number];
    return fixture ? available(fixture(now), ctx) : unavailable("not_found");
  }
  const fixtures = OTHER_MARKET_FIXTURES[query.country];
  if (!fixtures) return noSourceAnswer(query);
  if (number === fixtures.noAnswer) return unavailable("timeout", { retryable: true, retryAfterSeconds: null });
  if (number !== fixtures.active && number !== fixtures.notActive) return unavailable("not_found");
  return available(otherMarketCompany(query.country, number, now, number === fixtures.active)!, ctx);
}

export const sandboxRegisterSource: RegisterSource = { source: "sandbox", lookup };

/**
 * VAT fixtures, every VAT market alike: `<prefix>100000001` valid,
 * `<prefix>100000002` not valid, `<prefix>100000009` the VAT register does not
 * answer; any other number is not registered (not valid). The prefix is the
 * market's VAT prefix (GB, IE, FR, PL…); a number given without it is read
 * with it.
 */
export function sandboxVatSource(country: string): VatSource {
  return {
    source: "sandbox",
    async check(number, ctx): Promise<VatOutcome> {
      const given = compact(number);
      const full = /^[A-Z]{2}/.test(given) ? given : `${country}${given}`;
      const serial = full.startsWith(country) ? full.slice(2) : null;
      if (serial === "100000001") {
        return vatChecked(full, true, {
          registered_name: country === "GB" ? "Sandbox Trading Ltd" : `Sandbox Trading ${country}`,
          registered_address: country === "GB" ? "1 Sandbox Street, London, EC1A 1AA" : `1 Sandbox Street, ${country}`,
        }, ctx);
      }
      if (serial === "100000009") return vatUnanswered(full, "unavailable", { retryable: true, retryAfterSeconds: null });
      return vatChecked(full, false, {}, ctx);
    },
  };
}
