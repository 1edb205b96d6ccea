/**
 * How the portal and the hub show values to a person: one time and money form
 * (the market's locale and named zone, `8 Dec 2026, 06:24 GMT`; the currency's
 * symbol, two decimals only where fractional: domain/hub/local-form.ts, the hub's
 * own rule) and the labels of the reference lists (src/domain/reference) in place
 * of their codes (`25k_50k` → "£25,000 – £50,000", `stock_inventory` → "Stock and
 * inventory", `band_midpoint` → "midpoint of the applicant's band"). A value no
 * list knows is shown in words made from it, never as a code with underscores.
 */
import { localFormOf } from "../../domain/hub/local-form";
import { UNKNOWN_EXTENSION } from "../../domain/documents/file-type";
import { SIGNATURE_SCHEME } from "../../domain/hub/signature";
import {
  COMPANY_TYPES,
  CREDIT_SCORE_BANDS,
  DOCUMENT_REJECTION_REASONS,
  DOCUMENT_REQUEST_STATUSES,
  DOCUMENT_TYPES,
  FUNDING_AMOUNT_BANDS,
  INDUSTRIES,
  LEAD_STATES,
  PRODUCT_FAMILIES,
  PURPOSES,
  REQUEST_ITEM_TYPES,
  REVENUE_BANDS,
  TIME_IN_BUSINESS_BANDS,
  LENDER_EVENTS,
  PARTNER_EVENTS,
} from "../../domain/reference/values";
import { AUDIT_ACTIONS, ENVIRONMENT_LABELS, ROLE_LABELS } from "../../domain/portal/audit-actions";
import { MARKETS } from "../../domain/reference/markets";

type Labelled = readonly { value: string; label: string }[];

/** A code in words when no list knows it: `offer_accepted` → "Offer accepted". */
export function inWords(code: string): string {
  const words = code.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const from = (list: Labelled) => (value: string | null | undefined) => (value ? (list.find((e) => e.value === value)?.label ?? inWords(value)) : "—");

/** Where a figure comes from (figures.ts / matcher.ts bases), as a person reads it after the figure. */
const BASES: Record<string, string> = {
  reported: "as reported",
  applicant: "as given by the applicant",
  statements: "from the bank statements",
  register: "from the company register",
  filed_accounts: "from the filed accounts",
  annual_turnover: "from the annual turnover, by month",
  band_midpoint: "midpoint of the applicant's band",
  band_lower_bound: "lower bound of the applicant's band",
};

/** Why a company register gave no facts (domain/registers/types.ts `RegistryUnavailableReason`), as a sentence's end. */
const REGISTER_REASONS: Record<string, string> = {
  not_found: "it holds no company with this number",
  timeout: "it did not answer in time",
  unavailable: "it was unavailable",
  not_configured: "this market's register is not connected yet",
  not_available_in_state: "it does not cover this state",
  rate_limited: "it asked us to slow down; it is asked again later",
};

/** Where a register answer came from (the answer's `source`). */
const REGISTER_SOURCES: Record<string, string> = {
  official_register: "The official company register",
  sandbox: "The sandbox register (made-up facts for testing)",
};

/** A register's own company-type codes (Companies House `ltd`, `plc`, `llp`, …) where no market list holds them. */
const REGISTER_COMPANY_TYPES: Record<string, string> = {
  ltd: "Private limited company (Ltd)",
  plc: "Public limited company (plc)",
  llp: "Limited liability partnership (LLP)",
  "private-unlimited": "Private unlimited company",
  "limited-partnership": "Limited partnership",
  "private-limited-guarant-nsc": "Private company limited by guarantee",
  "private-limited-guarant-nsc-limited-exemption": "Private company limited by guarantee",
};

/** A business identifier the registers give (`market.identifiers` keys), by its name in that market. */
const IDENTIFIERS: Record<string, string> = {
  lei: "Legal Entity Identifier (LEI)",
  vat_number: "VAT number",
  ein: "Employer Identification Number (EIN)",
  state_entity_number: "State entity number",
  state: "State of registration",
  business_number: "Business Number",
  abn: "Australian Business Number (ABN)",
  nip: "Tax number (NIP)",
  krs: "Court register number (KRS)",
  regon: "Statistical number (REGON)",
  siren: "SIREN",
  siret: "SIRET",
};

/** A webhook endpoint's payload mode (the register form's two choices) and why a delivery attempt was made. */
const PAYLOAD_MODES: Record<string, string> = { full: "Full: the whole record with the event", reference: "Reference: ids only, read the record through the API" };
const ATTEMPT_TRIGGERS: Record<string, string> = { automatic: "sent automatically", manual: "sent by hand" };

/** Deal statuses and offer states, which have no reference list of their own. */
const STATUSES: Record<string, string> = {
  new: "New",
  in_review: "In review",
  offer_made: "Offer made",
  offer_accepted: "Offer accepted",
  account_submitted: "Account details given",
  signed: "Signed",
  declined: "Declined",
  funded: "Funded",
  presented: "Open",
  accepted: "Accepted",
  expired: "Expired",
  superseded: "Superseded",
  closed: "Closed",
  indicative: "Indicative",
  firm: "Firm",
};

export const LABELS = {
  purpose: from(PURPOSES),
  industry: from(INDUSTRIES),
  productFamily: from(PRODUCT_FAMILIES),
  timeInBusinessBand: from(TIME_IN_BUSINESS_BANDS),
  creditScoreBand: from(CREDIT_SCORE_BANDS),
  documentType: from(DOCUMENT_TYPES),
  rejection: from(DOCUMENT_REJECTION_REASONS),
  requestItem: from(REQUEST_ITEM_TYPES),
  // "Requested: waiting for the client" → "Requested": the part before the colon is the state's name.
  requestStatus: (value: string | null | undefined) => from(DOCUMENT_REQUEST_STATUSES)(value).split(":")[0],
  leadState: (value: string | null | undefined) => from(LEAD_STATES)(value).split(":")[0],
  status: (value: string | null | undefined) => (value ? (STATUSES[value] ?? inWords(value)) : "—"),
  basis: (value: string | null | undefined) => (value ? (BASES[value] ?? inWords(value).toLowerCase()) : ""),
  /** Audit action names (`key.created` → "Created an API key"), member roles and environments. */
  auditAction: (value: string | null | undefined) => (AUDIT_ACTIONS.find((a) => a.value === value)?.label ?? (value ? inWords(value.replace(/\./g, " ")) : "—")),
  role: from(ROLE_LABELS),
  environment: from(ENVIRONMENT_LABELS),
  /** A market's name from its alpha-2 or response code (`GB`, `UK` → "United Kingdom"). */
  market: (country: string | null | undefined) => (country ? (MARKETS.find((m) => m.country === country || m.code === country)?.name ?? country) : "—"),
  registerReason: (value: string | null | undefined) => (value ? (REGISTER_REASONS[value] ?? inWords(value).toLowerCase()) : "no reason given"),
  payloadMode: (value: string | null | undefined) => (value ? (PAYLOAD_MODES[value] ?? inWords(value)) : "—"),
  /** The short name of a payload mode ("Full", "Reference"), for a list. */
  payloadModeShort: (value: string | null | undefined) => (value ? (PAYLOAD_MODES[value] ?? inWords(value)).split(":")[0] : "—"),
  attemptTrigger: (value: string | null | undefined) => (value ? (ATTEMPT_TRIGGERS[value] ?? inWords(value).toLowerCase()) : ""),
  /** A webhook event's description (`lead.submitted` → "A lead was submitted"); the name stays beside it. */
  // `lead.created` opens every lead's timeline but is no webhook event.
  event: from([...PARTNER_EVENTS, ...LENDER_EVENTS, { value: "lead.created", label: "The lead was created" }]),
  registerSource: (value: string | null | undefined) => (value ? (REGISTER_SOURCES[value] ?? inWords(value)) : "—"),
  identifier: (value: string) => IDENTIFIERS[value] ?? inWords(value),
  entityType: (country: string | null | undefined, value: string | null | undefined) =>
    from(COMPANY_TYPES[country ?? ""] ?? Object.values(COMPANY_TYPES).flat())(value),
  /** The company type a register gave: its own code (`ltd`) or a market list's value, in words. */
  registerCompanyType: (country: string | null | undefined, value: string | null | undefined) =>
    value && REGISTER_COMPANY_TYPES[value] ? REGISTER_COMPANY_TYPES[value] : from(COMPANY_TYPES[country ?? ""] ?? Object.values(COMPANY_TYPES).flat())(value),
};

/** An environment inside a sentence ("in the sandbox environment"): its label, lower-cased. */
export const environmentInWords = (value: string | null | undefined) => LABELS.environment(value).toLowerCase();

/** The header's environment switch, in its own words ("Switch to live"); pages that send a person to it name it the same. */
export const environmentSwitchLabel = (to: string) => `Switch to ${environmentInWords(to)}`;

/** The one form of times and money for a market (a country that is not a served market: UTC, en-GB). */
export function formatFor(country: string | null | undefined) {
  const local = localFormOf(country);
  const money = (amount: number | null | undefined, currency: string) => (amount === null || amount === undefined ? "—" : local.money(amount, currency));
  const band = (bands: readonly { value: string; min: number; max: number | null }[], value: string | null | undefined, currency: string) => {
    const found = bands.find((b) => b.value === value);
    if (!value) return "—";
    if (!found) return inWords(value);
    return found.max === null ? `${money(found.min, currency)} or more` : `${money(found.min, currency)} – ${money(found.max, currency)}`;
  };
  return {
    timeZone: local.timeZone,
    /** `8 Dec 2026, 06:24 GMT`; "—" for none. */
    time: (iso: string | null | undefined) => local.time(iso) || "—",
    /** `14 Mar 2019` for a calendar date such as a register's incorporation; "—" for none. */
    date: (day: string | null | undefined) => local.date(day) || "—",
    money,
    amountBand: (value: string | null | undefined, currency: string) => band(FUNDING_AMOUNT_BANDS, value, currency),
    revenueBand: (value: string | null | undefined, currency: string) => band(REVENUE_BANDS, value, currency),
    /** A figure and where it comes from: `£40,000 (midpoint of the applicant's band)`. */
    withBasis: (shown: string, basis: string | null | undefined) => (basis && shown !== "—" ? `${shown} (${LABELS.basis(basis)})` : shown),
  };
}

/**
 * A size limit as a person reads it: whole MB or KB ("20 MB", "64 KB"), never MiB or a count of
 * bytes. The limits are binary multiples, so 20 MiB is said "20 MB": the person is told the number
 * their phone or computer shows for the file.
 */
export function sizeInWords(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB) return `${Math.floor(bytes / MB)} MB`;
  return `${Math.max(1, Math.floor(bytes / 1024))} KB`;
}

/**
 * A file's size as a person reads it: "3 MB", "1.5 MB", "24 KB", never a count of bytes. One
 * decimal place from a megabyte up, where it says something; at least "1 KB" for a tiny file.
 */
export function fileSizeInWords(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(1))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * A stored file's name as a person reads it. A file of no kind we recognise is stored ending in
 * `.bin` (domain/documents/file-type.ts): that extension is ours, not the sender's, so it is said
 * in words instead ("notes (file type not recognised)").
 */
export function fileNameInWords(name: string): string {
  const suffix = `.${UNKNOWN_EXTENSION}`;
  return name.toLowerCase().endsWith(suffix) ? `${name.slice(0, -suffix.length) || "file"} (file type not recognised)` : name;
}

/**
 * The business's signature check as a lender reads it: what the signature is and what it is bound
 * to, never the stored `typed_name:<hash>` (the API's `signature_verification` keeps it for
 * anyone who wants to recompute it; docs/client-hub.md "Signature scheme").
 */
export function signatureInWords(verification: string | null | undefined): string {
  if (!verification) return "—";
  if (verification.startsWith(`${SIGNATURE_SCHEME}:`)) return "Name typed and consent given, bound to the agreement file that was signed";
  return "Recorded";
}
