/**
 * Money for the commission ledger: integer minor units only (never a float in the ledger), and the
 * one rounding rule, round half up (docs/commission.md, "Rounding"). Half up, not banker's rounding:
 * each entry is one calculation on one deal, never re-rounded (a statement sums integers), so the
 * systematic drift banker's rounding avoids cannot build up; and half up is what the introducer's and
 * the lender's finance teams compute by hand or with a spreadsheet's ROUND, so every entry can be
 * checked line by line.
 */
import { CURRENCIES } from "../reference/values";

export type CurrencyCode = (typeof CURRENCIES)[number]["value"];

/** Digits after the decimal point of each market currency (ISO 4217): all two today, the table says so explicitly. */
const MINOR_DIGITS: Record<CurrencyCode, number> = { GBP: 2, USD: 2, CAD: 2, AUD: 2, EUR: 2, DKK: 2, SEK: 2, PLN: 2 };

export const isCurrency = (value: string): value is CurrencyCode => Object.hasOwn(MINOR_DIGITS, value);

/** `numerator / denominator` of non-negative integers, rounded half up, exactly (BigInt: no float on the way). */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError("divideHalfUp takes a non-negative numerator and a positive denominator.");
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/**
 * A major-unit amount as the APIs carry it (a JSON number, e.g. a funded amount of `1234.565`) in minor
 * units, rounded half up. Read from the number's shortest decimal spelling (what was sent), not its
 * binary value: `1.005` is 1.005, so 101 minor units, where `Math.round(1.005 * 100)` gives 100.
 */
export function toMinorUnits(amount: number, currency: CurrencyCode): number {
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError("toMinorUnits takes a finite, non-negative amount.");
  const digits = MINOR_DIGITS[currency];
  const spelled = String(amount).includes("e") ? amount.toFixed(20) : String(amount);
  const [whole, fraction = ""] = spelled.split(".");
  const kept = BigInt(whole + fraction.slice(0, digits).padEnd(digits, "0"));
  const roundsUp = (fraction[digits] ?? "0") >= "5";
  return Number(kept + (roundsUp ? 1n : 0n));
}

/** Minor units as a plain decimal string in major units (`123456` GBP → `"1234.56"`): the CSV's and the wording's figure. */
export function minorToDecimal(minor: number, currency: CurrencyCode): string {
  const digits = MINOR_DIGITS[currency];
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
