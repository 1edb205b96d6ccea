/**
 * The bank account a business gives for its payout, checked for format by the
 * market's scheme. Every view shows only a masked summary (`Acme Ltd ••••1234`);
 * the account in full is kept sealed (AES-GCM) for the lender's admin to pay into.
 * Pure.
 */

import { FORBIDDEN_TEXT_MESSAGE, hasForbiddenTextCharacter } from "../../lib/unicode";
import { accountSchemeOf, type AccountScheme } from "../reference/account-schemes";

export { accountSchemeOf, type AccountScheme };

/** Form fields each scheme asks for, in order. */
export const SCHEME_FIELDS: Record<AccountScheme, { name: string; label: string; hint: string }[]> = {
  uk: [
    { name: "sort_code", label: "Sort code", hint: "6 digits, e.g. 12-34-56" },
    { name: "account_number", label: "Account number", hint: "8 digits" },
  ],
  us: [
    { name: "routing_number", label: "Routing number (ABA)", hint: "9 digits" },
    { name: "account_number", label: "Account number", hint: "4 to 17 digits" },
  ],
  ca: [
    { name: "transit_number", label: "Transit number", hint: "5 digits" },
    { name: "institution_number", label: "Institution number", hint: "3 digits" },
    { name: "account_number", label: "Account number", hint: "7 to 12 digits" },
  ],
  au: [
    { name: "bsb", label: "BSB", hint: "6 digits, e.g. 062-000" },
    { name: "account_number", label: "Account number", hint: "6 to 10 digits" },
  ],
  iban: [{ name: "iban", label: "IBAN", hint: "e.g. IE29 AIBK 9311 5212 3456 78" }],
};


/** Why a form was refused: a required field is empty (`missing`) or filled with something unusable (`invalid`); the hub maps the reason to a refusal code. */
export type FormProblem = "missing" | "invalid";

/** One line of the account as given, for a lender admin paying out (kept sealed, never in a view). */
export interface AccountLine {
  label: string;
  value: string;
}

/** One field's problem, as a form shows it beside the field. */
export interface FieldProblem {
  field: string;
  message: string;
  problem: FormProblem;
}

/** A refused form names its first problem (`field`, `message`, `problem`) and lists every one (`problems`), so a page shows them all at once. */
export type FormCheckFailure = FieldProblem & { ok: false; problems: FieldProblem[] };

/** The failure of a form's problems (at least one), in the order the form asks its fields. */
export const failureOf = (problems: readonly FieldProblem[]): FormCheckFailure => ({ ok: false, ...problems[0]!, problems: [...problems] });

export type AccountCheck = { ok: true; summary: string; full: AccountLine[] } | FormCheckFailure;

const HOLDER_MAX = 140;
const digitsOf = (v: string) => v.replace(/[\s-]/g, "");

/** ISO 13616 check: move the first four characters to the end, letters to numbers, mod 97 = 1. */
export function ibanValid(iban: string) {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const n = ch >= "A" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of n) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** ABA routing number checksum (3-7-1 weights). */
export function abaValid(routing: string) {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

const missing = (field: string, label: string): FieldProblem => ({ field, message: `${label} is required.`, problem: "missing" });
const invalid = (field: string, message: string): FieldProblem => ({ field, message, problem: "invalid" });

/** Each scheme field's format: whether its normal form is usable, and what to say when it is not. */
const FORMATS: Record<string, { valid: (v: string) => boolean; message: string }> = {
  sort_code: { valid: (v) => /^\d{6}$/.test(v), message: "Sort code must be 6 digits." },
  routing_number: { valid: abaValid, message: "Routing number must be 9 digits with a valid ABA checksum." },
  transit_number: { valid: (v) => /^\d{5}$/.test(v), message: "Transit number must be 5 digits." },
  institution_number: { valid: (v) => /^\d{3}$/.test(v), message: "Institution number must be 3 digits." },
  bsb: { valid: (v) => /^\d{6}$/.test(v), message: "BSB must be 6 digits." },
  iban: { valid: ibanValid, message: "IBAN is not valid: check the country code, length and check digits." },
};
const ACCOUNT_NUMBER: Record<AccountScheme, RegExp> = { uk: /^\d{8}$/, us: /^\d{4,17}$/, ca: /^\d{7,12}$/, au: /^\d{6,10}$/, iban: /^$/ };
const ACCOUNT_NUMBER_WORDS: Record<AccountScheme, string> = { uk: "8", us: "4 to 17", ca: "7 to 12", au: "6 to 10", iban: "" };

export function maskedSummary(holder: string, number: string) {
  return `${holder} ••••${number.slice(-4)}`;
}

/** The account as checked, label by label: the holder, then the scheme's fields in their normal form. */
function inFull(scheme: AccountScheme, holder: string, form: Record<string, string | undefined>): AccountLine[] {
  return [
    { label: "Account holder name", value: holder },
    ...SCHEME_FIELDS[scheme].map((f) => ({ label: f.label, value: f.name === "iban" ? (form.iban ?? "").replace(/\s+/g, "").toUpperCase() : digitsOf(form[f.name] ?? "") })),
  ];
}

/**
 * Checks the submitted form fields for the scheme. The masked summary is what every view shows; the
 * account in full is only ever stored sealed (services/deals/payout-account.ts), for a lender admin.
 */
export function checkAccountDetails(scheme: AccountScheme, form: Record<string, string | undefined>): AccountCheck {
  const problems: FieldProblem[] = [];
  const holder = (form.account_holder_name ?? "").trim().replace(/\s+/g, " ");
  if (!holder) problems.push(missing("account_holder_name", "Account holder name"));
  else if (hasForbiddenTextCharacter(form.account_holder_name ?? "")) problems.push(invalid("account_holder_name", `Account holder name ${FORBIDDEN_TEXT_MESSAGE}`));
  else if (holder.length > HOLDER_MAX) problems.push(invalid("account_holder_name", `Account holder name must be at most ${HOLDER_MAX} characters.`));
  // Every field is checked, so the page shows each problem at once, never one per post.
  const normal = (name: string) => (name === "iban" ? (form.iban ?? "").replace(/\s+/g, "").toUpperCase() : digitsOf(form[name] ?? ""));
  for (const f of SCHEME_FIELDS[scheme]) {
    if (!(form[f.name] ?? "").trim()) problems.push(missing(f.name, f.label));
    else if (f.name === "account_number") {
      if (!ACCOUNT_NUMBER[scheme].test(normal(f.name))) problems.push(invalid(f.name, `Account number must be ${ACCOUNT_NUMBER_WORDS[scheme]} digits.`));
    } else if (!FORMATS[f.name]!.valid(normal(f.name))) problems.push(invalid(f.name, FORMATS[f.name]!.message));
  }
  if (problems.length > 0) return failureOf(problems);
  const number = scheme === "iban" ? normal("iban") : normal("account_number");
  return { ok: true, summary: maskedSummary(holder, number), full: inFull(scheme, holder, form) };
}
