/**
 * The lead form's inputs and how their flat names map to the API's body.
 *
 * Each input is named by the dotted path of the JSON field it fills
 * (`business.name` → `{ business: { name } }`), so a zod issue's path and an
 * Refusal's `field` (both dotted paths, see lib/validation.ts) name the input
 * the message belongs beside. The body built here is validated by the API's own
 * LeadCreate / LeadPatch schemas; nothing is checked here that they check.
 *
 * Conversions, the only liberties the form takes:
 * - an empty input is absent on create, and `null` (cleared) on edit;
 * - number inputs become numbers when they read as one by the one input rule
 *   (web/kit/number-input.ts: `£50k`, `50,000`, `1.2m`, `60%`, `3 years`, each by what
 *   its field holds; a currency sign only the market's own); otherwise the text goes to
 *   the schema as it is, which refuses it beside the input;
 * - a date input is three fields (day, month, year, in the market's order) or one box
 *   read in that order (`12/03/1975`), becoming `YYYY-MM-DD`;
 * - checkboxes are `true` when ticked and `false` when not;
 * - `consent.obtained_at` comes from a `datetime-local` input, read as UTC
 *   (`2026-11-01T10:00` → `2026-11-01T10:00:00Z`).
 */
import {
  COMPANY_TYPES,
  CREDIT_SCORE_BANDS,
  FUNDING_AMOUNT_BANDS,
  INDUSTRIES,
  PRODUCT_FAMILIES,
  PURPOSES,
  REVENUE_BANDS,
  TIME_IN_BUSINESS_BANDS,
} from "../../../domain/reference/values";
import { MARKETS } from "../../../domain/reference/markets";
import { dateExample, dateOrderOf, EXAMPLE_OF, readQuantity, type DateOrder } from "../../kit/number-input";
import { dateOfForm } from "../../kit/form";
import { CONSENT_TEXTS } from "../../../domain/leads/consent-texts";

type FieldKind = "text" | "email" | "tel" | "number" | "select" | "checkbox" | "datetime" | "date";

export interface LeadFormField {
  name: string;
  label: string;
  kind: FieldKind;
  options?: readonly { value: string; label: string }[];
  hint?: string;
}

interface LeadFormSection {
  legend: string;
  fields: LeadFormField[];
}

/** Every market's company types, each value once with the first market's label (GB's "Private limited company (Ltd)"). */
const companyTypes = Object.values(COMPANY_TYPES)
  .flat()
  .filter((type, index, all) => all.findIndex((t) => t.value === type.value) === index);

export const MARKET_FIELD: LeadFormField = {
  name: "country",
  label: "Market",
  kind: "select",
  options: MARKETS.map((m) => ({ value: m.country, label: m.name })),
};

/** Every input of the lead form, grouped as the page shows them. */
export const LEAD_FORM_SECTIONS: LeadFormSection[] = [
  {
    legend: "Your reference",
    fields: [
      { name: "partner_reference", label: "Your reference for this lead", kind: "text" },
      { name: "channel.name", label: "Channel name", kind: "text" },
      { name: "channel.domain", label: "Channel domain", kind: "text" },
    ],
  },
  {
    legend: "Business",
    fields: [
      { name: "business.name", label: "Business name", kind: "text" },
      { name: "business.company_number", label: "Company number", kind: "text", hint: "The local register number (none in Spain)." },
      { name: "business.entity_type", label: "Entity type", kind: "select", options: companyTypes, hint: "One of the market's company types." },
      { name: "business.industry", label: "Industry", kind: "select", options: INDUSTRIES },
      { name: "business.vat.number", label: "VAT number", kind: "text", hint: "Only where a VAT register is checked." },
    ],
  },
  {
    legend: "Contact",
    fields: [
      { name: "contact.first_name", label: "First name", kind: "text" },
      { name: "contact.last_name", label: "Last name", kind: "text" },
      { name: "contact.email", label: "Email", kind: "email" },
      { name: "contact.phone", label: "Phone", kind: "tel" },
    ],
  },
  {
    legend: "Funding",
    fields: [
      { name: "funding.amount", label: "Amount", kind: "number", hint: `In the market's currency, ${EXAMPLE_OF.money}.` },
      { name: "funding.amount_band", label: "Amount band (when the amount is not known)", kind: "select", options: FUNDING_AMOUNT_BANDS },
      { name: "funding.purpose", label: "Purpose", kind: "select", options: PURPOSES },
      { name: "funding.product_family", label: "Product family", kind: "select", options: PRODUCT_FAMILIES },
    ],
  },
  {
    legend: "Trading",
    fields: [
      { name: "trading.monthly_revenue", label: "Monthly revenue", kind: "number", hint: `${EXAMPLE_OF.money[0]!.toUpperCase()}${EXAMPLE_OF.money.slice(1)}.` },
      { name: "trading.monthly_revenue_band", label: "Monthly revenue band", kind: "select", options: REVENUE_BANDS },
      { name: "trading.annual_turnover", label: "Annual turnover", kind: "number", hint: `${EXAMPLE_OF.money[0]!.toUpperCase()}${EXAMPLE_OF.money.slice(1)}.` },
      { name: "trading.tib_months", label: "Months trading", kind: "number", hint: `${EXAMPLE_OF.months[0]!.toUpperCase()}${EXAMPLE_OF.months.slice(1)}.` },
      { name: "trading.time_in_business_band", label: "Time in business band", kind: "select", options: TIME_IN_BUSINESS_BANDS },
      { name: "trading.credit_score_band", label: "Credit score band (US and Canada only)", kind: "select", options: CREDIT_SCORE_BANDS },
    ],
  },
  {
    legend: "Consent",
    fields: [
      { name: "consent.obtained", label: "The applicant consented", kind: "checkbox" },
      { name: "consent.obtained_at", label: "Consent obtained at (UTC)", kind: "datetime" },
      { name: "consent.soft_credit_search", label: "The applicant agreed to a soft credit search", kind: "checkbox" },
      {
        name: "consent.text_version",
        label: "Consent text the applicant agreed to",
        kind: "select",
        options: CONSENT_TEXTS.map((v) => ({ value: v.version, label: `Version ${v.version}` })),
        hint: "With the box above ticked, the lead keeps a receipt naming this text and its hash (channel: portal).",
      },
    ],
  },
];

export const LEAD_FORM_FIELDS: LeadFormField[] = [MARKET_FIELD, ...LEAD_FORM_SECTIONS.flatMap((s) => s.fields)];
const FIELD_NAMES = new Set(LEAD_FORM_FIELDS.map((f) => f.name));

/** The lead form's inputs of these names, in this order: another form that asks the same things (prequalification) takes them from here. */
export function leadFormFields(...names: string[]): LeadFormField[] {
  return names.map((name) => {
    const field = LEAD_FORM_FIELDS.find((f) => f.name === name);
    if (!field) throw new Error(`The lead form has no input named ${name}.`);
    return field;
  });
}

/** The form as posted: flat names to their single value. */
export type PostedForm = Record<string, string>;

/** How a form's values are read beyond their text: the market's currency for amounts, its order for dates. */
interface ReadingOf {
  currency?: string;
  dateOrder: DateOrder;
}

/** The reading of a form about a lead of this market (a market we do not serve: no currency check, day first). */
export function readingOf(country: string | undefined): ReadingOf {
  const market = MARKETS.find((m) => m.country === country);
  return { currency: market?.currency, dateOrder: market ? dateOrderOf(market.locale) : "DMY" };
}

/** The hint of a date field: three fields in this order, with GOV.UK's example. */
export const dateHint = (order: DateOrder) => `Day, month and year, ${dateExample(order)}.`;

function valueOf(field: LeadFormField, raw: string | undefined, mode: "create" | "edit", form: PostedForm, reading: ReadingOf): unknown {
  if (field.kind === "checkbox") return raw !== undefined;
  if (field.kind === "date") return dateOfForm(form, field.name, reading.dateOrder) ?? (mode === "create" ? undefined : null);
  const text = (raw ?? "").trim();
  if (text === "") return mode === "create" ? undefined : null;
  if (field.kind === "number") return readQuantity(field.name, text, reading.currency) ?? text;
  if (field.kind === "datetime") return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(text) ? `${text}:00Z` : text;
  return text;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown) {
  let node = target;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[path.at(-1)!] = value;
}

/** The JSON body these inputs make: each input's value set at its dotted path. */
export function bodyOfFields(fields: readonly LeadFormField[], form: PostedForm, mode: "create" | "edit", reading: ReadingOf = readingOf(form.country)): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = valueOf(field, form[field.name], mode, form, reading);
    if (value === undefined) continue;
    // The market select always holds a market; an empty one on edit leaves the market as it is.
    if (field.name === "country" && value === null) continue;
    setPath(body, field.name.split("."), value);
  }
  return body;
}

/** The JSON body POST /leads (create) or PATCH /leads/{id} (edit) would receive for this form. */
export const leadBodyOf = (form: PostedForm, mode: "create" | "edit") => bodyOfFields(LEAD_FORM_FIELDS, form, mode);

/**
 * The input a problem belongs beside: its own path when the form has that
 * input, else the nearest input under it (`business.vat` → `business.vat.number`),
 * else none (shown above the form).
 */
export function inputOfField(field: string | null | undefined): string | null {
  if (!field) return null;
  if (FIELD_NAMES.has(field)) return field;
  return LEAD_FORM_FIELDS.find((f) => f.name.startsWith(`${field}.`))?.name ?? null;
}

/** The values to show back in the inputs: what was posted (after a refusal) or the lead's stored parts. */
export function formValuesOfLead(lead: Record<string, unknown>): PostedForm {
  const values: PostedForm = {};
  for (const field of LEAD_FORM_FIELDS) {
    let node: unknown = lead;
    for (const key of field.name.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
    if (node === undefined || node === null) continue;
    if (field.kind === "checkbox") {
      if (node === true) values[field.name] = "on";
    } else if (field.kind === "datetime") {
      values[field.name] = String(node).slice(0, 16);
    } else values[field.name] = String(node);
  }
  return values;
}

/**
 * The lead's version an edit form was drawn from (its hidden `version` input), or null when it
 * carries none. Every edit form of a draft carries it, and the save applies only to that version
 * (issue 39 item 2): a page drawn before another change is refused, not applied over it.
 */
export const drawnVersion = (form: Record<string, string | undefined>) => (/^\d{1,15}$/.test(form.version ?? "") ? Number(form.version) : null);

/** What a save from a page drawn before another change is told; nothing was written. */
export const LEAD_CHANGED = "This lead changed since you opened the page: nothing was saved. Check what it holds now and make your change again.";
