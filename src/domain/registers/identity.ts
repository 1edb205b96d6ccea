/**
 * One identity per company: the register number (or, where there is none,
 * the VAT number) normalised per market, so that the ways people type the
 * same number compare equal. Attribution (docs/leads.md, "Attribution")
 * compares these keys and nothing else; the register adapters read numbers
 * through the same rules, so a number they look up is the number attributed.
 */

/** Upper case with spaces, dots, dashes and slashes out: what is left of a number once its typing is gone. */
const compactNumber = (input: string) => input.toUpperCase().replace(/[\s.\-/]+/g, "");

const digitsOnly = (input: string) => compactNumber(input).replace(/[^0-9]/g, "");

/**
 * GB company numbers are 8 characters. A bare number is zero-padded
 * (1234 → 00001234); a prefixed one (SC, NI, OC…) keeps its prefix and is
 * padded after it, as users type them (SC12345 → SC012345).
 */
export function gbCompanyNumber(input: string): string | null {
  const compact = input.replace(/\s+/g, "").toUpperCase();
  const prefixed = /^([A-Z]{2})(\d{1,6})$/.exec(compact);
  const padded = /^\d{1,8}$/.test(compact) ? compact.padStart(8, "0") : prefixed ? `${prefixed[1]}${prefixed[2].padStart(6, "0")}` : compact;
  return /^[A-Z0-9]{8}$/.test(padded) ? padded : null;
}

/** A SIREN is 9 digits; a SIRET (14) starts with its company's SIREN. */
export function sirenOf(input: string): string | null {
  const digits = input.replace(/[\s.]/g, "");
  if (/^\d{9}$/.test(digits)) return digits;
  if (/^\d{14}$/.test(digits)) return digits.slice(0, 9);
  return null;
}

/** KRS numbers are 10 digits, zero-padded; a leading `KRS` is dropped. */
export function krsNumberOf(input: string): string | null {
  const digits = input.replace(/\s+/g, "").replace(/^KRS/i, "");
  return /^\d{1,10}$/.test(digits) ? digits.padStart(10, "0") : null;
}

/** 11 digits whose weighted sum (first digit less one) divides by 89 (the ABR's published check). */
export function abnOf(input: string): string | null {
  const digits = input.replace(/\s+/g, "");
  if (!/^\d{11}$/.test(digits)) return null;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...digits].reduce((acc, d, i) => acc + (Number(d) - (i === 0 ? 1 : 0)) * weights[i], 0);
  return sum % 89 === 0 ? digits : null;
}

/** Digits of a number zero-padded to `width`, or null when there are more, or letters. */
const paddedDigits = (width: number, drop: RegExp | null = null) => (input: string) => {
  const compact = compactNumber(input).replace(drop ?? /^$/, "");
  return new RegExp(`^\\d{1,${width}}$`).test(compact) ? compact.padStart(width, "0") : null;
};

/**
 * The register number rule of each market with a `company_number`
 * (`register_number_label` in the market table). A number a rule cannot read
 * is still compared, in its compact form, so two identical typos match.
 */
export const REGISTER_NUMBER_RULES: Readonly<Record<string, (input: string) => string | null>> = {
  GB: gbCompanyNumber,
  // CRO numbers are up to 6 digits; written with or without leading zeros or a `CRO` prefix.
  IE: (input) => {
    const digits = compactNumber(input).replace(/^CRO/, "");
    return /^0*\d{1,6}$/.test(digits) ? String(Number(digits)) : null;
  },
  FR: sirenOf,
  PL: krsNumberOf,
  AU: abnOf,
  // KvK numbers are 8 digits.
  NL: paddedDigits(8, /^KVK/),
  // The enterprise number is 10 digits, a leading 0 for the older ones (0123.456.789 or BE0123456789).
  BE: paddedDigits(10, /^BE/),
  // CVR numbers are 8 digits.
  DK: paddedDigits(8, /^DK/),
  // Organisation numbers are 10 digits (556677-8899), written with or without the century.
  SE: (input) => {
    const digits = digitsOnly(input);
    return /^\d{10}$/.test(digits) ? digits : /^(16|19|20)\d{10}$/.test(digits) ? digits.slice(2) : null;
  },
  // The business number's first 9 digits name the business; a program account (RT0001, RC0001…) does not.
  CA: (input) => {
    const compact = compactNumber(input);
    const match = /^(\d{9})(?:[A-Z]{2}\d{4})?$/.exec(compact);
    return match ? match[1] : null;
  },
  // A state entity number is the state's own: compared as given, its typing gone.
  US: (input) => compactNumber(input) || null,
};

/** A VAT number as `{prefix}{national}` (ESB12345678): upper case, separators out, the market's prefix added when missing (Greece's is EL). */
function vatKey(country: string, input: string): string | null {
  const prefix = country === "GR" ? "EL" : country;
  const compact = compactNumber(input);
  if (!compact) return null;
  const national = compact.startsWith(prefix) ? compact.slice(prefix.length) : compact;
  return national ? `${prefix}${national}` : null;
}

export interface CompanyIdentity {
  /** `GB:register:SC012345`, `ES:vat:ESB12345678`: the one string two leads for the same company share. */
  key: string;
  kind: "register" | "vat";
}

/**
 * The company a lead names: its register number under the market's rule,
 * else its VAT number (Spain has no register number: its CIF is the VAT
 * number less `ES`, so the VAT key is the CIF). Null when the lead names
 * neither: nothing to attribute.
 */
export function companyIdentity(country: string, companyNumber: string | null | undefined, vatNumber: string | null | undefined): CompanyIdentity | null {
  const rule = REGISTER_NUMBER_RULES[country];
  if (rule && companyNumber && compactNumber(companyNumber)) {
    return { key: `${country}:register:${rule(companyNumber) ?? compactNumber(companyNumber)}`, kind: "register" };
  }
  const vat = vatNumber ? vatKey(country, vatNumber) : null;
  return vat ? { key: `${country}:vat:${vat}`, kind: "vat" } : null;
}
