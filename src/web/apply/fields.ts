/**
 * The inputs of the application's form steps, named by the dotted path of the lead's JSON field they
 * fill (`business.name`), so the API's LeadPatch schema validates what they post and its issues name
 * the input they belong beside. Options come from the reference lists the API validates against.
 * The words are the business's, not an integrator's.
 */
import { STEP_FIELDS } from "../../domain/leads/application-link";
import { CREDIT_SCORE_BANDS, INDUSTRIES, PRODUCT_FAMILIES, PURPOSES, companyTypesFor } from "../../domain/reference/values";
import { normaliseStatus, REGISTER_STATUS_WORDS } from "../../domain/registers/facts";
import { inWords } from "../kit/format";
import type { Market } from "../../domain/reference/markets";
import { fill, type ApplyLocale } from "./messages";

export interface StepField {
  name: string;
  label: string;
  kind: "text" | "email" | "tel" | "number" | "select";
  options?: readonly { value: string; label: string }[];
  hint?: string;
  autocomplete?: string;
}

export type FormStep = keyof typeof STEP_FIELDS;

/** A reference list's options (its codes, in its order) with the page's labels. */
const labelled = <T extends string>(list: readonly { value: T; label: string }[], labels: Record<string, string>) => list.map((e) => ({ value: e.value, label: labels[e.value] ?? e.label }));

/** The market's company types: the list's own words in the market's language, else the page's. */
const companyTypesIn = (market: Market, l: ApplyLocale) => {
  const own = companyTypesFor(market);
  return l.speaksMarketLanguage(market) ? own : labelled(own, l.labels.company_type);
};

/** The register's status word in the page's language ("in liquidation"); a word no source was known to write, as the register wrote it. */
export function registerStatusIn(status: string, l: ApplyLocale) {
  const word = normaliseStatus(status);
  return REGISTER_STATUS_WORDS.includes(word) ? (l.labels.register_status[word] ?? inWords(word)) : inWords(status).toLowerCase();
}

/** The inputs of a form step in the lead's market (its company types, its currency; credit score only where it is asked), in the page's words. */
export function stepFields(step: FormStep, market: Market, l: ApplyLocale): StepField[] {
  const { t } = l;
  const currency = market.currency;
  // What the kit reads (web/kit/number-input.ts): `50,000` in English, `50 000` in every other language (never `50.000`, fifty in London).
  const example = l.locale.startsWith("en") ? "50,000" : "50 000";
  const all: Record<string, StepField> = {
    "business.name": { name: "business.name", label: t.businessName, kind: "text", autocomplete: "organization" },
    "business.company_number": { name: "business.company_number", label: l.registerNumber(market) ?? t.companyNumber, kind: "text", hint: t.companyNumberHint },
    "business.entity_type": { name: "business.entity_type", label: t.entityType, kind: "select", options: companyTypesIn(market, l) },
    "business.industry": { name: "business.industry", label: t.industry, kind: "select", options: labelled(INDUSTRIES, l.labels.industry) },
    "contact.first_name": { name: "contact.first_name", label: t.firstName, kind: "text", autocomplete: "given-name" },
    "contact.last_name": { name: "contact.last_name", label: t.lastName, kind: "text", autocomplete: "family-name" },
    "contact.email": { name: "contact.email", label: t.email, kind: "email", autocomplete: "email" },
    "contact.phone": { name: "contact.phone", label: t.phone, kind: "tel", autocomplete: "tel" },
    "funding.amount": { name: "funding.amount", label: fill(t.amount, { currency }), kind: "number", hint: fill(t.amountHint, { example }) },
    "funding.purpose": { name: "funding.purpose", label: t.purpose, kind: "select", options: labelled(PURPOSES, l.labels.purpose) },
    "funding.product_family": { name: "funding.product_family", label: t.productFamily, kind: "select", options: labelled(PRODUCT_FAMILIES, l.labels.product_family) },
    "trading.monthly_revenue": { name: "trading.monthly_revenue", label: fill(t.monthlyRevenue, { currency }), kind: "number", hint: fill(t.monthlyRevenueHint, { example: example.replace("50", "30") }) },
    "trading.annual_turnover": { name: "trading.annual_turnover", label: fill(t.annualTurnover, { currency }), kind: "number" },
    "trading.tib_months": { name: "trading.tib_months", label: t.tibMonths, kind: "number", hint: t.tibMonthsHint },
    "trading.credit_score_band": { name: "trading.credit_score_band", label: t.creditScoreBand, kind: "select", options: labelled(CREDIT_SCORE_BANDS, l.labels.credit_score_band) },
  };
  const askCreditScore = market.block === "us" || market.block === "ca";
  const noNumber = market.register_number_label === null;
  return STEP_FIELDS[step]
    .filter((name) => (name !== "trading.credit_score_band" || askCreditScore) && (name !== "business.company_number" || !noNumber))
    .map((name) => all[name]!);
}
