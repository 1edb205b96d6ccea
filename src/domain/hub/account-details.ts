/**
 * The bank account a business gives for its payout, checked for format by the
 * market's scheme. Every view shows only a masked summary (`Acme Ltd ••••1234`);
 * the account in full is kept sealed (AES-GCM) for the lender's admin to pay into
 * (issue 45 item 6). Pure.
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

export type AccountCheck = { ok: true; summary: string; full: AccountLine[] } | { ok: false; field: string; message: string; problem: FormProblem };

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

const missing = (field: string, label: string): AccountCheck => ({ ok: false, field, message: `${label} is required.`, problem: "missing" });
const invalid = (field: string, message: string): AccountCheck => ({ ok: false, field, message, problem: "invalid" });

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
  const holder = (form.account_holder_name ?? "").trim().replace(/\s+/g, " ");
  if (!holder) return missing("account_holder_name", "Account holder name");
  if (hasForbiddenTextCharacter(form.account_holder_name ?? "")) return invalid("account_holder_name", `Account holder name ${FORBIDDEN_TEXT_MESSAGE}`);
  if (holder.length > HOLDER_MAX) return invalid("account_holder_name", `Account holder name must be at most ${HOLDER_MAX} characters.`);
  for (const f of SCHEME_FIELDS[scheme]) if (!(form[f.name] ?? "").trim()) return missing(f.name, f.label);
  const value = (name: string) => digitsOf(form[name] ?? "");
  switch (scheme) {
    case "uk": {
      if (!/^\d{6}$/.test(value("sort_code"))) return invalid("sort_code", "Sort code must be 6 digits.");
      if (!/^\d{8}$/.test(value("account_number"))) return invalid("account_number", "Account number must be 8 digits.");
      return { ok: true, summary: maskedSummary(holder, value("account_number")), full: inFull(scheme, holder, form) };
    }
    case "us": {
      if (!abaValid(value("routing_number"))) return invalid("routing_number", "Routing number must be 9 digits with a valid ABA checksum.");
      if (!/^\d{4,17}$/.test(value("account_number"))) return invalid("account_number", "Account number must be 4 to 17 digits.");
      return { ok: true, summary: maskedSummary(holder, value("account_number")), full: inFull(scheme, holder, form) };
    }
    case "ca": {
      if (!/^\d{5}$/.test(value("transit_number"))) return invalid("transit_number", "Transit number must be 5 digits.");
      if (!/^\d{3}$/.test(value("institution_number"))) return invalid("institution_number", "Institution number must be 3 digits.");
      if (!/^\d{7,12}$/.test(value("account_number"))) return invalid("account_number", "Account number must be 7 to 12 digits.");
      return { ok: true, summary: maskedSummary(holder, value("account_number")), full: inFull(scheme, holder, form) };
    }
    case "au": {
      if (!/^\d{6}$/.test(value("bsb"))) return invalid("bsb", "BSB must be 6 digits.");
      if (!/^\d{6,10}$/.test(value("account_number"))) return invalid("account_number", "Account number must be 6 to 10 digits.");
      return { ok: true, summary: maskedSummary(holder, value("account_number")), full: inFull(scheme, holder, form) };
    }
    case "iban": {
      const iban = (form.iban ?? "").replace(/\s+/g, "").toUpperCase();
      if (!ibanValid(iban)) return invalid("iban", "IBAN is not valid: check the country code, length and check digits.");
      return { ok: true, summary: maskedSummary(holder, iban), full: inFull(scheme, holder, form) };
    }
  }
}
