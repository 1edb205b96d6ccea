/**
 * The one map from a refusal to what a person reads beside a field, shared by
 * every portal and hub form. The API keeps its developer messages ("funding.amount:
 * Invalid input: expected number, received string"); a page says "Enter the amount
 * as a number, for example 50000". Keyed by what went wrong (a zod issue code, or a
 * service's refusal code) and the field it is about; every field has a label here.
 *
 * `messagesOf` is the only way in: a form hands it what refused it (a zod error of
 * its own schema with the input it parsed, or a service's refusal `{ code, detail, field }` with its
 * `missing` / `errors` lists) and gets back one message per field, in order.
 */
import type { z } from "@hono/zod-openapi";
import { sentFor } from "../../lib/validation";
import { FORBIDDEN_LINES_MESSAGE, FORBIDDEN_TEXT_MESSAGE } from "../../lib/unicode";
import { EXAMPLE_OF, quantityOf } from "./number-input";

/** What a page shows: the input name it belongs beside (null: above the form), the field's label and the person's message. */
interface PageMessage {
  field: string | null;
  label: string | null;
  message: string;
  /** What went wrong, by the map's kinds (`required`, `bad_email`…), so a page in another language can word it itself; null for a rule's own sentence. */
  kind: MessageKind | null;
  /** The kind's bound (`too_long`: the most characters), where it has one. */
  limit?: string;
}

/** A service's refusal as a form sees it: the code (ApiError's or the Refusal's), the developer detail and the field, with the lists some refusals carry. */
interface RefusalLike {
  code: string;
  detail: string;
  field?: string | null;
  /** The fields a submit found missing (422 `missing_fields`). */
  missing?: readonly string[];
  /** Several problems at once (a market's rules, or a validation refusal already flattened by the API). */
  errors?: readonly { field: string; message: string }[];
}

/**
 * Every field a portal or hub form fills, by its path with list indexes and the
 * API's `query.` / `body.` prefixes dropped, to the name a person knows it by.
 */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  country: "Market",
  partner_reference: "Your reference",
  "channel.name": "Site or app the lead came from",
  "channel.domain": "Web address of the site or app",
  "business.name": "Business name",
  "business.company_number": "Company number",
  "business.entity_type": "Entity type",
  "business.industry": "Industry",
  "business.vat": "VAT number",
  "business.vat.number": "VAT number",
  "contact.first_name": "First name",
  "contact.last_name": "Last name",
  "contact.email": "Email",
  "contact.phone": "Phone",
  "funding.amount": "Amount",
  "funding.amount_band": "Amount band",
  "funding.purpose": "Purpose",
  "funding.product_family": "Product family",
  "trading.monthly_revenue": "Monthly revenue",
  "trading.monthly_revenue_band": "Monthly revenue band",
  "trading.annual_turnover": "Annual turnover",
  "trading.tib_months": "Months trading",
  "trading.time_in_business_band": "Time in business band",
  "trading.credit_score_band": "Credit score band",
  "consent.obtained": "Consent",
  "consent.obtained_at": "Consent date and time",
  "consent.soft_credit_search": "Soft credit search consent",
  // The names the market rules give what a submit needs (markets.ts required_for_submit).
  company_number: "Company number",
  entity_type: "Entity type",
  monthly_revenue: "Monthly revenue",
  time_in_business: "Time in business",
  credit_score_band: "Credit score band",
  // Significant persons (the portal's persons form names them in the list, `significant_persons.<n>.<field>`).
  significant_persons: "Significant persons",
  "significant_persons.full_name": "Full name",
  full_name: "Full name",
  date_of_birth: "Date of birth",
  "residential_address.line1": "Address line 1",
  "residential_address.line2": "Address line 2",
  "residential_address.city": "Town or city",
  "residential_address.region": "Region",
  "residential_address.postal_code": "Postcode",
  "residential_address.country": "Country",
  residency_status: "Residency status",
  ownership_percent: "Ownership",
  // The lender's deal page.
  maturity: "Terms",
  amount: "Amount",
  kind: "Product",
  annual_rate_pct: "Yearly rate",
  factor_rate: "Factor rate",
  term_months: "Term",
  fees: "Fees",
  total_repayment: "Total to repay",
  expires_at: "Expiry date",
  notes: "Notes",
  status: "Status",
  reason: "Reason",
  funded_amount: "Funded amount",
  body: "Message",
  subject: "Subject",
  item_type: "Document",
  note: "Note",
  agreement: "Agreement PDF",
  // Keys, webhooks, members, events.
  name: "Name",
  type: "Key type",
  allowed_origins: "Allowed origins",
  url: "Endpoint URL",
  events: "Events",
  event: "Event",
  payload: "Payload",
  description: "Description",
  email: "Email",
  role: "Role",
  display_name: "Name",
  time_zone: "Time zone",
  state: "State",
  market: "Market",
  cursor: "Page link",
  limit: "Page size",
  // The client hub.
  file: "File",
  account_holder_name: "Account holder's name",
  sort_code: "Sort code",
  account_number: "Account number",
  iban: "IBAN",
  routing_number: "Routing number",
  bsb: "BSB",
  institution_number: "Institution number",
  transit_number: "Transit number",
  consent: "Consent",
  offer: "Offer",
};

/** The wording of each kind of problem, given the field's label. */
const BY_KIND = {
  required: (label: string) => `${label} is needed.`,
  required_for_submit: (label: string) => `${label} is needed before you can submit.`,
  // Overwritten per field by `wording` with the field's own example (number-input.ts EXAMPLE_OF).
  not_a_number: (label: string) => `Enter the ${lower(label)} as a number.`,
  not_text: (label: string) => `Enter the ${lower(label)} as text.`,
  not_a_choice: (label: string) => `Choose the ${lower(label)} from the list.`,
  too_small: (label: string, limit?: string) => (limit ? `${label} must be at least ${limit}.` : `${label} is too short.`),
  too_big: (label: string, limit?: string) => (limit ? `${label} must be at most ${limit}.` : `${label} is too long.`),
  too_long: (label: string, limit?: string) => `${label} must be at most ${limit ?? "a few hundred"} characters.`,
  too_many: (label: string, limit?: string) => `Choose at most ${limit ?? "a few"} ${lower(label)}.`,
  bad_email: (label: string) => `Enter the ${lower(label)} like name@example.com.`,
  bad_url: (label: string) => `Enter the ${lower(label)} like https://example.com/hooks.`,
  bad_date: (label: string) => `Enter the ${lower(label)} as a date and time.`,
  bad_format: (label: string) => `Check the ${lower(label)}: it is not in the expected form.`,
  not_a_whole_number: (label: string) => `Enter the ${lower(label)} as a whole number.`,
  unknown_field: () => "The form sent something this page does not use; open the page again and retry.",
  not_plain_text: (label: string) => `Write the ${lower(label)} as plain text: remove any invisible or text-direction character (such as a zero-width space or a right-to-left mark), often pasted in by accident.`,
  invalid: (label: string) => `Check the ${lower(label)}.`,
} as const;
type Kind = keyof typeof BY_KIND;
export type MessageKind = Kind;

/** Wordings that say more than the kind's for one field (`kind field`). */
const BY_FIELD: Readonly<Record<string, string>> = {
  "required funding.amount": "Enter the amount, or choose an amount band.",
  "required funding.purpose": "Choose what the funding is for.",
  "required country": "Choose the market the business trades in.",
  "not_a_choice country": "Choose the market the business trades in from the list.",
  "required_for_submit trading.monthly_revenue": "Monthly revenue (or its band) is needed before you can submit.",
  "required_for_submit time_in_business": "Months trading (or the time in business band) is needed before you can submit.",
  "required email": "Enter the person's email address, like name@example.com.",
  "bad_email email": "Enter the person's email address, like name@example.com.",
  "required role": "Choose admin or member.",
  "invalid time_zone": "Choose a time zone from the list.",
  "required time_zone": "Choose a time zone from the list.",
  "not_a_choice role": "Choose admin or member.",
  "invalid annual_rate_pct": "Give a yearly rate or a factor rate: one of them, not both.",
  "invalid expires_at": "Choose an expiry date in the future.",
  "invalid description": "Write the description as plain text on one line: no tabs, line breaks, invisible or text-direction characters.",
    "invalid allowed_origins": "Enter each origin like https://www.example.com (no path).",
  "required body": "Write a message before sending.",
  "required events": "Choose at least one event.",
  "invalid events": "Choose the events from the list: only this API's events can be subscribed to.",
  "required full_name": "Type your full name to sign.",
  "bad_date date_of_birth": "Enter the date of birth as day, month and year, for example 27 3 2007.",
  "bad_format date_of_birth": "Enter the date of birth as day, month and year, for example 27 3 2007.",
  "invalid date_of_birth": "Enter the date of birth as day, month and year, for example 27 3 2007.",
  "required consent": "Tick the box to agree before you continue.",
  "required file": "Choose a file to upload.",
  "required agreement": "Choose the agreement PDF to upload.",
  "invalid ownership_percent": "The ownership of all significant persons adds up to more than 100%.",
  "invalid significant_persons": "The ownership of all significant persons adds up to more than 100%.",
  "required significant_persons.full_name": "Enter the full name of the person.",
};

const lower = (label: string) => (/^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1));

/** `query.events.0` → `events`; `allowed_origins.2` → `allowed_origins`; `persons.1.full_name` → `full_name` when only that is labelled. */
function fieldKey(path: string | null | undefined): string | null {
  if (!path) return null;
  const parts = path.split(".").filter((p) => !/^\d+$/.test(p));
  if (parts.length > 1 && (parts[0] === "query" || parts[0] === "body" || parts[0] === "param")) parts.shift();
  for (let start = 0; start < parts.length; start++) {
    const key = parts.slice(start).join(".");
    if (key in FIELD_LABELS) return key;
  }
  return parts.join(".") || null;
}

/** The field's label; a field the map does not know is named in words made from its last part, never by its path. */
export function labelOf(path: string | null | undefined): string | null {
  const key = fieldKey(path);
  if (!key) return null;
  if (key in FIELD_LABELS) return FIELD_LABELS[key];
  const last = key.split(".").at(-1) ?? key;
  const words = last.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function wording(kind: Kind, field: string | null, limit?: string): string {
  const key = fieldKey(field);
  const special = key ? BY_FIELD[`${kind} ${key}`] : undefined;
  if (special) return special;
  // Each number field gives its own example: an amount "50,000 or 50k", a rate "11.5 or 11.5%", a term "24, or 2 years".
  if (kind === "not_a_number" && key) return `Enter the ${lower(labelOf(field) ?? "value")} as a number, ${EXAMPLE_OF[quantityOf(key)]}.`;
  return BY_KIND[kind](labelOf(field) ?? "This field", limit);
}

/** A developer's sentence about fields (a market rule, a service's detail) with every field path in it replaced by its label. */
function inPlainWords(text: string, field?: string | null): string {
  // "url host is private…" about the field `url`: its label leads the sentence instead.
  const key = fieldKey(field);
  const lead = key && text.startsWith(`${key} `) && key in FIELD_LABELS ? `${FIELD_LABELS[key]}${text.slice(key.length)}` : text;
  const named = lead
    .replace(/\b(?:query|body)\.([a-z_]+(?:\.[a-z_0-9]+)*)/g, "$1")
    .replace(/\b[a-z_]+(?:\.[a-z_0-9]+)+\b/g, (path) => (fieldKey(path) && fieldKey(path)! in FIELD_LABELS ? labelOf(path)! : path))
    .replace(/^Invalid input: /, "");
  const sentence = named.charAt(0).toUpperCase() + named.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

type Issue = z.core.$ZodIssue & { input?: unknown };

/** Nothing typed for the field an issue is about: absent, null or an empty text (read from what was posted, never from zod's message). */
function leftOut(issue: Issue, input: unknown): boolean {
  const sent = sentFor(issue, input);
  return !sent.present || sent.value === null || sent.value === "";
}

function kindOfIssue(issue: Issue, input: unknown): { kind: Kind; limit?: string } {
  switch (issue.code) {
    case "invalid_type":
      if (leftOut(issue, input)) return { kind: "required" };
      if (issue.expected === "number" || issue.expected === "int" || issue.expected === "bigint") return { kind: "not_a_number" };
      if (issue.expected === "string") return { kind: "not_text" };
      return { kind: "invalid" };
    case "invalid_value":
      return { kind: leftOut(issue, input) ? "required" : "not_a_choice" };
    case "too_small":
      if ((issue.origin === "string" || issue.origin === "array" || issue.origin === "set") && Number(issue.minimum) <= 1) return { kind: "required" };
      return { kind: "too_small", limit: String(issue.minimum) };
    case "too_big":
      if (issue.origin === "string") return { kind: "too_long", limit: String(issue.maximum) };
      if (issue.origin === "array" || issue.origin === "set") return { kind: "too_many", limit: String(issue.maximum) };
      return { kind: "too_big", limit: String(issue.maximum) };
    case "invalid_format":
      if (issue.format === "email") return { kind: "bad_email" };
      if (issue.format === "url") return { kind: "bad_url" };
      if (issue.format === "datetime" || issue.format === "date") return { kind: "bad_date" };
      return { kind: "bad_format" };
    case "not_multiple_of":
      return { kind: "not_a_whole_number" };
    case "unrecognized_keys":
      return { kind: "unknown_field" };
    default:
      return { kind: "invalid" };
  }
}

function ofZodIssue(issue: Issue, input: unknown): PageMessage {
  const path = issue.path.map(String).join(".") || null;
  if (issue.code === "unrecognized_keys") return { field: null, label: null, message: BY_KIND.unknown_field(), kind: "unknown_field" };
  // A rule of the schema's own (one of two fields, a country we do not serve, an ownership total):
  // its field's own wording when the map has one, else the rule's sentence in plain words.
  // A rule about a field left out ("funding.amount or funding.amount_band is required") is that field's "needed".
  if (issue.code === "custom") {
    const special = BY_FIELD[`invalid ${fieldKey(path)}`];
    if (special) return { field: path, label: labelOf(path), message: special, kind: "invalid" };
    if (path && leftOut(issue, input)) return { field: path, label: labelOf(path), message: wording("required", path), kind: "required" };
    // The one text rule (src/lib/unicode.ts): said in words, never with code points.
    if (issue.message === FORBIDDEN_TEXT_MESSAGE || issue.message === FORBIDDEN_LINES_MESSAGE) return { field: path, label: labelOf(path), message: wording("not_plain_text", path), kind: "not_plain_text" };
    return { field: path, label: labelOf(path), message: inPlainWords(issue.message), kind: null };
  }
  const { kind, limit } = kindOfIssue(issue, input);
  return { field: path, label: labelOf(path), message: wording(kind, path, limit), kind, limit };
}

function ofRefusal(refusal: RefusalLike): PageMessage[] {
  if (refusal.missing?.length) {
    return refusal.missing.map((field) => ({ field, label: labelOf(field), message: wording("required_for_submit", field), kind: "required_for_submit" as const }));
  }
  if (refusal.errors?.length) {
    return refusal.errors.map((e) => ({ field: e.field || null, label: labelOf(e.field), message: inPlainWords(e.message.replace(/^[a-z_.0-9]+: /, "")), kind: null }));
  }
  const field = refusal.field ?? null;
  // A service's sentence often begins with the field's path ("url host is private…"): the label reads better.
  return [{ field, label: labelOf(field), message: inPlainWords(refusal.detail, field), kind: null }];
}

const isZodError = (value: unknown): value is z.ZodError =>
  typeof value === "object" && value !== null && Array.isArray((value as { issues?: unknown }).issues);

/**
 * What refused a form, in the person's words, one message per problem in the
 * order they were found. A zod error is read issue by issue, with the input the
 * form parsed (its codes are the map's keys; what was sent tells a value left
 * out from a wrong one); a service's refusal by its `missing` / `errors` lists or its field.
 */
export function messagesOf(error: z.ZodError, input: unknown): PageMessage[];
export function messagesOf(refusal: RefusalLike): PageMessage[];
export function messagesOf(source: z.ZodError | RefusalLike, input?: unknown): PageMessage[] {
  if (isZodError(source)) return source.issues.map((issue) => ofZodIssue(issue as Issue, input));
  return ofRefusal(source);
}
