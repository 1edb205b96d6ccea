/**
 * The one input rule of the HTML doors (portal, hub, application link): numbers, amounts,
 * percentages, terms and dates as people type them, read into what the API's schemas take.
 *
 * A value is read only where one reading is possible: `£50k`, `£50,000`, `1.2m` and `60%` are,
 * `5,0` (a typo, not fifty), `50k%`, a `$` on a pound amount or `50.000` as money (fifty thousand
 * in Amsterdam, fifty in London) are not. Anything not read is null: the form passes the text on
 * as typed and the schema refuses it beside its field, so a typo is never stored as another value.
 *
 * Which rule a field follows is said once, by the field's name (`QUANTITY_OF`), so the lead form,
 * the persons form, the lender's offer form and the messages that explain a refusal agree.
 */

const SEPARATORS = "[,\u00a0\u202f ]";
const GROUPED = new RegExp(`^-?\\d{1,3}(?:(${SEPARATORS})\\d{3})(?:\\1\\d{3})*(?:\\.\\d+)?$`);
const PLAIN = /^-?\d+(?:\.\d+)?$/;

/** A plain or thousands-grouped number (`50000`, `50,000`, `50 000`, `1,250.50`), else null. */
export function readNumber(text: string): number | null {
  const t = text.trim();
  if (PLAIN.test(t)) return Number(t);
  if (GROUPED.test(t)) return Number(t.replace(new RegExp(SEPARATORS, "g"), ""));
  return null;
}

/** What a number field holds, which decides what may be typed around the digits. */
type Quantity = "money" | "percent" | "months" | "number";

/**
 * Every number field of the portal and hub forms by its name (the JSON path the form fills, or its
 * last part): one table, read by the form readers and by the messages' examples.
 */
const QUANTITY_OF: Readonly<Record<string, Quantity>> = {
  "funding.amount": "money",
  "trading.monthly_revenue": "money",
  "trading.annual_turnover": "money",
  "trading.tib_months": "months",
  amount: "money",
  fees: "money",
  total_repayment: "money",
  funded_amount: "money",
  monthly_revenue: "money",
  annual_rate_pct: "percent",
  ownership_percent: "percent",
  factor_rate: "number",
  term_months: "months",
  tib_months: "months",
};

/** The quantity a field holds: its full name first, then its last part (`deal.amount` → `amount`). */
export function quantityOf(name: string): Quantity {
  return QUANTITY_OF[name] ?? QUANTITY_OF[name.split(".").at(-1) ?? name] ?? "number";
}

/** What each quantity's hint and refusal give as its example: never another field's. */
export const EXAMPLE_OF: Readonly<Record<Quantity, string>> = {
  money: "for example 50,000 or 50k",
  percent: "for example 11.5 or 11.5%",
  months: "in months, for example 24, or in years, for example 2 years",
  number: "for example 1.25",
};

/** The signs a currency is written with (besides its ISO code). `$` is shared by three, and read as whichever the field is in. */
const SIGNS: Readonly<Record<string, readonly string[]>> = {
  GBP: ["£"],
  EUR: ["€"],
  USD: ["$", "us$"],
  CAD: ["$", "c$", "ca$"],
  AUD: ["$", "a$", "au$"],
  SEK: ["kr"],
  DKK: ["kr", "kr."],
  PLN: ["zł", "zl"],
};
const ALL_SIGNS = [...new Set(Object.values(SIGNS).flat())].sort((a, b) => b.length - a.length);
const CODES = Object.keys(SIGNS);

/** The currency mark at either end of a money text, or null: `£50k` → `£`, `50 000 kr` → `kr`. */
function splitCurrency(text: string): { mark: string | null; rest: string } {
  const lower = text.toLowerCase();
  for (const mark of [...CODES.map((c) => c.toLowerCase()), ...ALL_SIGNS]) {
    if (lower.startsWith(mark)) return { mark, rest: text.slice(mark.length).trim() };
    if (lower.endsWith(mark)) return { mark, rest: text.slice(0, text.length - mark.length).trim() };
  }
  return { mark: null, rest: text };
}

const markFits = (mark: string, currency: string | undefined) =>
  currency === undefined ? true : mark === currency.toLowerCase() || (SIGNS[currency.toUpperCase()] ?? []).includes(mark);

const SUFFIX: Readonly<Record<string, number>> = { k: 1_000, m: 1_000_000, bn: 1_000_000_000 };

/**
 * An amount of money: a currency sign or code at either end (only the field's own currency when it
 * is known), thousands separators, and `k` / `m` / `bn` (`£50k` = 50,000, `1.2m` = 1,200,000).
 * Refused: a percent sign, two marks, and three decimals with no other separator (`50.000`), which
 * is fifty thousand where the dot groups thousands.
 */
export function readMoney(text: string, currency?: string): number | null {
  let t = text.trim();
  const negative = t.startsWith("-");
  if (negative) t = t.slice(1).trim();
  const { mark, rest } = splitCurrency(t);
  if (mark !== null && !markFits(mark, currency)) return null;
  t = rest;
  if (t.startsWith("-")) return null;
  const suffix = /^(.*?)\s?(k|m|bn)$/i.exec(t);
  const scale = suffix ? SUFFIX[suffix[2]!.toLowerCase()]! : 1;
  if (suffix) t = suffix[1]!;
  if (/^\d+\.\d{3}$/.test(t)) return null;
  const value = readNumber(t);
  if (value === null || value < 0) return null;
  // `1.1m` is 1,100,000, not 1,100,000.0000000002: amounts keep at most the cents that were typed.
  const amount = scale === 1 ? value : Math.round(value * scale * 100) / 100;
  return negative ? -amount : amount;
}

/** A percentage: a number with or without `%` after it (`60%`, `11.5 %`). The `%` is the unit, never a hundredth: `60%` is 60. */
export function readPercent(text: string): number | null {
  const t = text.trim().replace(/\s*%$/, "");
  return t.includes("%") ? null : readNumber(t);
}

const YEARS = /^(\d+(?:\.\d+)?)\s*(?:years?|yrs?|y)$/i;
const MONTHS = /^(\d+)\s*(?:months?|mths?|mos?)$/i;
const BOTH = /^(\d+)\s*(?:years?|yrs?|y),?\s*(?:and\s+)?(\d+)\s*(?:months?|mths?|mos?)$/i;

/**
 * A term in months: a number of months (`24`, `18 months`), years (`3 years` = 36, `1.5 years` =
 * 18) or both (`1 year 6 months`). A number of years that is not a whole number of months is refused.
 */
export function readMonths(text: string): number | null {
  const t = text.trim();
  const plain = readNumber(t);
  if (plain !== null) return plain;
  const both = BOTH.exec(t);
  if (both) return Number(both[1]) * 12 + Number(both[2]);
  const months = MONTHS.exec(t);
  if (months) return Number(months[1]);
  const years = YEARS.exec(t);
  if (years) {
    const n = Number(years[1]) * 12;
    return Number.isInteger(Math.round(n * 1e9) / 1e9) ? Math.round(n) : null;
  }
  return null;
}

/** A number field read by what it holds (`quantityOf`); null when it cannot be read as one. */
export function readQuantity(name: string, text: string, currency?: string): number | null {
  switch (quantityOf(name)) {
    case "money":
      return readMoney(text, currency);
    case "percent":
      return readPercent(text);
    case "months":
      return readMonths(text);
    default:
      return readNumber(text);
  }
}

/** The order a market writes the day, month and year in. */
export type DateOrder = "DMY" | "MDY" | "YMD";

/** The order a locale writes a date in (`en-GB` DMY, `en-US` MDY, `en-CA` and `sv-SE` YMD), from the platform's own calendar data. */
export function dateOrderOf(locale: string): DateOrder {
  const parts = new Intl.DateTimeFormat(locale, { day: "numeric", month: "numeric", year: "numeric" })
    .formatToParts(new Date(Date.UTC(2006, 0, 2)))
    .filter((p) => p.type === "day" || p.type === "month" || p.type === "year")
    .map((p) => p.type.charAt(0).toUpperCase())
    .join("");
  return parts === "MDY" || parts === "YMD" ? parts : "DMY";
}

const MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The calendar date of three whole numbers as `YYYY-MM-DD`, or null when no such day exists (31 February) or the year is not four digits. */
export function dateOfParts(day: string | number, month: string | number, year: string | number): string | null {
  const [d, m, y] = [day, month, year].map((v) => String(v).trim());
  if (!/^\d{1,2}$/.test(d!) || !/^\d{1,2}$/.test(m!) || !/^\d{4}$/.test(y!)) return null;
  const [dn, mn, yn] = [Number(d), Number(m), Number(y)];
  const date = new Date(Date.UTC(yn, mn - 1, dn));
  if (date.getUTCFullYear() !== yn || date.getUTCMonth() !== mn - 1 || date.getUTCDate() !== dn) return null;
  return `${pad(yn, 4)}-${pad(mn)}-${pad(dn)}`;
}

/**
 * A date typed in one box, as `YYYY-MM-DD`: ISO (`1975-03-12`) anywhere; a month written as a word
 * (`12 March 1975`, `March 12, 1975`) anywhere; three numbers (`12/03/1975`, `12.03.1975`,
 * `12 3 1975`) in the market's order. A two-digit year is refused (which century is a guess).
 */
export function readDate(text: string, order: DateOrder): string | null {
  const t = text.trim().toLowerCase().replace(/,/g, " ");
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (iso) return dateOfParts(iso[3]!, iso[2]!, iso[1]!);
  const parts = t.split(/[\s/.\-]+/).filter(Boolean);
  if (parts.length !== 3) return null;
  const named = parts.findIndex((p) => /^[a-z]{3,}\.?$/.test(p));
  if (named !== -1) {
    const month = MONTH_NAMES.indexOf(parts[named]!.slice(0, 3));
    const numbers = parts.filter((_, i) => i !== named);
    if (month === -1 || numbers.length !== 2 || !/^\d{4}$/.test(numbers[1]!)) return null;
    return dateOfParts(numbers[0]!.replace(/(st|nd|rd|th)$/, ""), month + 1, numbers[1]!);
  }
  const [a, b, c] = parts as [string, string, string];
  if (order === "YMD") return dateOfParts(c, b, a);
  if (order === "MDY") return dateOfParts(b, a, c);
  return dateOfParts(a, b, c);
}

/** The example a date field gives, in the market's order: `for example 27 3 2007` (GOV.UK's form). */
export function dateExample(order: DateOrder): string {
  const example = { DMY: "27 3 2007", MDY: "3 27 2007", YMD: "2007 3 27" }[order];
  return `for example ${example}`;
}
