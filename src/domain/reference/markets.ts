/**
 * The market table: the one source of truth for which countries the service
 * serves and what each requires. Validation, OpenAPI, the enum endpoints,
 * submit and the matcher all read it.
 */

export type MarketBlockKey = "uk" | "us" | "ca" | "other";

/** Paths the submit check looks for; `monthly_revenue` and `time_in_business` are met by a figure or a band. */
export type SubmitRequirement =
  | "company_number"
  | "entity_type"
  | "monthly_revenue"
  | "time_in_business"
  | "credit_score_band";

export interface Market {
  /** ISO 3166-1 alpha-2 code used in requests. */
  country: string;
  /** Code returned in responses (`UK` for the United Kingdom, otherwise the alpha-2). */
  code: string;
  alpha3: string;
  name: string;
  currency: string;
  local_currency: string;
  instant_matching: boolean;
  launch: "open" | "integrated";
  /** Label of the local business register number; null where the market has no company number (Spain). */
  register_number_label: string | null;
  /** Whether a VAT register is checked for businesses of this market. */
  vat_checked: boolean;
  block: MarketBlockKey;
  required_for_submit: SubmitRequirement[];
  /** Keys a register `identifiers` object may carry in this market. */
  identifier_keys: string[];
  aliases: string[];
  /**
   * IANA time zone the business's times are shown in (the client hub). One per
   * market: where a market spans several zones (US, CA, AU) it is the most
   * populous one, and every rendered time names its zone, so none is ambiguous.
   */
  time_zone: string;
  /** BCP 47 locale for the local form of dates, times and amounts (the client hub's pages are in English). */
  locale: string;
}

const standardRequirements: SubmitRequirement[] = ["monthly_revenue", "time_in_business"];

export const MARKETS: readonly Market[] = [
  {
    country: "GB", code: "UK", alpha3: "GBR", name: "United Kingdom", currency: "GBP", local_currency: "GBP",
    instant_matching: true, launch: "open", register_number_label: "Company registration number", vat_checked: true,
    block: "uk", required_for_submit: ["company_number", "entity_type", "monthly_revenue", "time_in_business"],
    identifier_keys: ["vat_number", "lei"],
    aliases: ["uk", "great britain", "britain", "england", "scotland", "wales", "northern ireland"],
    time_zone: "Europe/London", locale: "en-GB",
  },
  {
    country: "US", code: "US", alpha3: "USA", name: "United States", currency: "USD", local_currency: "USD",
    instant_matching: true, launch: "open", register_number_label: "State entity number", vat_checked: false,
    block: "us", required_for_submit: ["credit_score_band", "monthly_revenue", "time_in_business"],
    identifier_keys: ["ein", "state_entity_number", "state", "lei"],
    aliases: ["united states of america", "usa", "america"],
    time_zone: "America/New_York", locale: "en-US",
  },
  {
    country: "CA", code: "CA", alpha3: "CAN", name: "Canada", currency: "CAD", local_currency: "CAD",
    instant_matching: true, launch: "open", register_number_label: "Business number", vat_checked: false,
    block: "ca", required_for_submit: ["credit_score_band", "monthly_revenue", "time_in_business"],
    identifier_keys: ["business_number", "lei"], aliases: [],
    time_zone: "America/Toronto", locale: "en-CA",
  },
  {
    country: "AU", code: "AU", alpha3: "AUS", name: "Australia", currency: "AUD", local_currency: "AUD",
    instant_matching: false, launch: "open", register_number_label: "ABN", vat_checked: false,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["abn", "lei"], aliases: [],
    time_zone: "Australia/Sydney", locale: "en-AU",
  },
  {
    country: "IE", code: "IE", alpha3: "IRL", name: "Ireland", currency: "EUR", local_currency: "EUR",
    instant_matching: false, launch: "open", register_number_label: "CRO number", vat_checked: true,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["vat_number", "lei"],
    aliases: ["republic of ireland", "eire"],
    time_zone: "Europe/Dublin", locale: "en-IE",
  },
  {
    country: "ES", code: "ES", alpha3: "ESP", name: "Spain", currency: "EUR", local_currency: "EUR",
    instant_matching: false, launch: "open", register_number_label: null, vat_checked: true,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["nif", "vat_number", "lei"],
    aliases: ["espana", "españa"],
    time_zone: "Europe/Madrid", locale: "es-ES",
  },
  {
    country: "NL", code: "NL", alpha3: "NLD", name: "Netherlands", currency: "EUR", local_currency: "EUR",
    instant_matching: false, launch: "open", register_number_label: "KvK number", vat_checked: true,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["vat_number", "lei"],
    aliases: ["the netherlands", "holland"],
    time_zone: "Europe/Amsterdam", locale: "nl-NL",
  },
  {
    country: "BE", code: "BE", alpha3: "BEL", name: "Belgium", currency: "EUR", local_currency: "EUR",
    instant_matching: false, launch: "integrated", register_number_label: "Enterprise number", vat_checked: true,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["vat_number", "lei"], aliases: [],
    time_zone: "Europe/Brussels", locale: "nl-BE",
  },
  {
    country: "DK", code: "DK", alpha3: "DNK", name: "Denmark", currency: "EUR", local_currency: "DKK",
    instant_matching: false, launch: "open", register_number_label: "CVR number", vat_checked: true,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["vat_number", "lei"], aliases: [],
    time_zone: "Europe/Copenhagen", locale: "da-DK",
  },
  {
    country: "SE", code: "SE", alpha3: "SWE", name: "Sweden", currency: "EUR", local_currency: "SEK",
    instant_matching: false, launch: "open", register_number_label: "Organisation number", vat_checked: true,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["vat_number", "lei"], aliases: [],
    time_zone: "Europe/Stockholm", locale: "sv-SE",
  },
  {
    country: "PL", code: "PL", alpha3: "POL", name: "Poland", currency: "EUR", local_currency: "PLN",
    instant_matching: false, launch: "open", register_number_label: "KRS number", vat_checked: true,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["nip", "krs", "regon", "vat_number", "lei"],
    aliases: ["polska"],
    time_zone: "Europe/Warsaw", locale: "pl-PL",
  },
  {
    country: "FR", code: "FR", alpha3: "FRA", name: "France", currency: "EUR", local_currency: "EUR",
    instant_matching: false, launch: "integrated", register_number_label: "SIREN", vat_checked: true,
    block: "other", required_for_submit: standardRequirements, identifier_keys: ["siren", "siret", "vat_number", "lei"],
    aliases: [],
    time_zone: "Europe/Paris", locale: "fr-FR",
  },
];

/**
 * Countries the service names but refuses to serve. The currency is there so
 * a prequalification answering one out of scope still names a currency.
 */
export const REFUSED_COUNTRIES = [
  { country: "DE", alpha3: "DEU", name: "Germany", currency: "EUR", aliases: ["deutschland"] },
  { country: "IT", alpha3: "ITA", name: "Italy", currency: "EUR", aliases: ["italia"] },
] as const;

export const MARKET_COUNTRIES = MARKETS.map((m) => m.country) as [string, ...string[]];

export type CountryResolution =
  | { ok: true; market: Market }
  | { ok: false; reason: "refused"; name: string }
  | { ok: false; reason: "unknown" };

const normalise = (input: string) => input.trim().toLowerCase().replace(/\s+/g, " ");

const lookup = new Map<string, Market>();
for (const m of MARKETS) {
  for (const k of [m.country, m.code, m.alpha3, m.name, ...m.aliases]) lookup.set(normalise(k), m);
}
const refusedLookup = new Map<string, string>();
for (const r of REFUSED_COUNTRIES) {
  for (const k of [r.country, r.alpha3, r.name, ...r.aliases]) refusedLookup.set(normalise(k), r.name);
}

/** Accepts alpha-2 (GB or UK), alpha-3 and plain English names, case-insensitively. */
export function resolveCountry(input: string): CountryResolution {
  const key = normalise(input);
  const market = lookup.get(key);
  if (market) return { ok: true, market };
  const refused = refusedLookup.get(key);
  if (refused) return { ok: false, reason: "refused", name: refused };
  return { ok: false, reason: "unknown" };
}

export function marketFor(country: string): Market {
  const m = lookup.get(normalise(country));
  if (!m) throw new Error(`not a served market: ${country}`);
  return m;
}

/** The message a refused or unknown country answers with; one wording everywhere. */
export function countryProblem(resolution: Exclude<CountryResolution, { ok: true }>, input: string): string {
  return resolution.reason === "refused"
    ? `${resolution.name} is not served by this service.`
    : `"${input}" is not a supported market. Supported: ${MARKET_COUNTRIES.join(", ")} (alpha-2, alpha-3 or English name).`;
}
