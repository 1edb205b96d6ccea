/**
 * The inputs of the application's form steps, named by the dotted path of the lead's JSON field they
 * fill (`business.name`), so the API's LeadPatch schema validates what they post and its issues name
 * the input they belong beside. Options come from the reference lists the API validates against.
 * The words are the business's, not an integrator's.
 */
import { STEP_FIELDS } from "../../domain/leads/application-link";
import { CREDIT_SCORE_BANDS, INDUSTRIES, PRODUCT_FAMILIES, PURPOSES, companyTypesFor } from "../../domain/reference/values";
import type { Market } from "../../domain/reference/markets";

export interface StepField {
  name: string;
  label: string;
  kind: "text" | "email" | "tel" | "number" | "select";
  options?: readonly { value: string; label: string }[];
  hint?: string;
  autocomplete?: string;
}

export type FormStep = keyof typeof STEP_FIELDS;

/** The inputs of a form step in the lead's market (its company types, its currency; credit score only where it is asked). */
export function stepFields(step: FormStep, market: Market): StepField[] {
  const all: Record<string, StepField> = {
    "business.name": { name: "business.name", label: "Business name", kind: "text", autocomplete: "organization" },
    "business.company_number": {
      name: "business.company_number",
      label: market.register_number_label ?? "Company number",
      kind: "text",
      hint: "As the company register shows it. We look it up and show you what the register says.",
    },
    "business.entity_type": { name: "business.entity_type", label: "Type of business", kind: "select", options: companyTypesFor(market) },
    "business.industry": { name: "business.industry", label: "Industry", kind: "select", options: INDUSTRIES },
    "contact.first_name": { name: "contact.first_name", label: "First name", kind: "text", autocomplete: "given-name" },
    "contact.last_name": { name: "contact.last_name", label: "Last name", kind: "text", autocomplete: "family-name" },
    "contact.email": { name: "contact.email", label: "Email", kind: "email", autocomplete: "email" },
    "contact.phone": { name: "contact.phone", label: "Phone", kind: "tel", autocomplete: "tel" },
    "funding.amount": { name: "funding.amount", label: `How much do you need (${market.currency})?`, kind: "number", hint: "For example 50,000." },
    "funding.purpose": { name: "funding.purpose", label: "What is it for?", kind: "select", options: PURPOSES },
    "funding.product_family": { name: "funding.product_family", label: "What kind of funding?", kind: "select", options: PRODUCT_FAMILIES },
    "trading.monthly_revenue": { name: "trading.monthly_revenue", label: `Money coming in each month (${market.currency})`, kind: "number", hint: "An average month's sales, for example 30,000." },
    "trading.annual_turnover": { name: "trading.annual_turnover", label: `Turnover in the last year (${market.currency})`, kind: "number" },
    "trading.tib_months": { name: "trading.tib_months", label: "Months the business has been trading", kind: "number", hint: "For example 36 for three years." },
    "trading.credit_score_band": { name: "trading.credit_score_band", label: "Your credit score band", kind: "select", options: CREDIT_SCORE_BANDS },
  };
  const askCreditScore = market.block === "us" || market.block === "ca";
  const noNumber = market.register_number_label === null;
  return STEP_FIELDS[step]
    .filter((name) => (name !== "trading.credit_score_band" || askCreditScore) && (name !== "business.company_number" || !noNumber))
    .map((name) => all[name]!);
}

export const isFormStep = (slug: string): slug is FormStep => slug in STEP_FIELDS;
