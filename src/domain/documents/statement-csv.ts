/**
 * Bank statements exported as CSV. Banks differ in everything but the idea:
 * some preamble lines (account name, sort code), a header row, then one row
 * per transaction. The header row is found by its names; money is either one
 * signed amount column or split paid in / paid out (credit / debit) columns.
 * Rows whose date does not read (totals, footers) are skipped.
 */
import { calendarDate, summariseLines, type StatementLine } from "./statement-figures";
import type { ParsedStatement } from "./types";

const DELIMITERS = [",", ";", "\t"] as const;
/** The header row is looked for among the first rows only; beyond that it is not a statement export. */
const HEADER_SEARCH_ROWS = 30;

/** RFC 4180 rows: quoted fields may hold the delimiter, doubled quotes and line breaks. */
export function csvRows(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field.trim() === "") {
      field = "";
      quoted = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.map((r) => r.map((f) => f.trim())).filter((r) => r.some((f) => f !== ""));
}

const normalise = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

const CREDIT_NAMES = ["paid in", "credit", "credits", "credit amount", "money in", "in", "deposit", "deposits", "receipts"];
const DEBIT_NAMES = ["paid out", "debit", "debits", "debit amount", "money out", "out", "withdrawal", "withdrawals", "payments"];

/** A name with a currency suffix (`Paid in (£)`, `Amount GBP`) still names its column. */
const withoutCurrency = (name: string) => name.replace(/\s+(gbp|eur|usd|cad|aud)$/, "").trim();

interface Columns {
  date: number;
  amount: number | null;
  credit: number | null;
  debit: number | null;
  currency: number | null;
  /** A currency named in a money column's header (`Amount (GBP)`). */
  headerCurrency: string | null;
}

export function findColumns(header: readonly string[]): Columns | null {
  const names = header.map(normalise);
  const plain = names.map(withoutCurrency);
  const find = (test: (name: string) => boolean) => {
    const i = plain.findIndex(test);
    return i === -1 ? null : i;
  };
  const date = find((n) => n === "date" || /^(transaction|posting|posted|booking|completed|value|txn) date$/.test(n) || n === "date posted");
  if (date === null) return null;
  const amount = find((n) => n === "amount" || n === "value" || n === "transaction amount" || n === "net amount");
  const credit = find((n) => CREDIT_NAMES.includes(n));
  const debit = find((n) => DEBIT_NAMES.includes(n));
  if (amount === null && (credit === null || debit === null)) return null;
  const money = [amount, credit, debit].filter((i): i is number => i !== null).map((i) => names[i]);
  const code = money.map((n) => /\b(gbp|eur|usd|cad|aud)$/.exec(n)?.[1]).find(Boolean);
  return { date, amount, credit, debit, currency: find((n) => n === "currency" || n === "ccy"), headerCurrency: code ? code.toUpperCase() : null };
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** `YYYY-MM-DD`, `DD/MM/YYYY`, `DD-MM-YYYY`, `DD.MM.YYYY`, `DD MMM YYYY` (also `DD-MMM-YYYY`, full month names). */
export function parseStatementDate(input: string): string | null {
  const s = input.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(s);
  if (m) return calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (m) return calendarDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[ -]([A-Za-z]{3,9})\.?[ -](\d{4})$/.exec(s);
  if (m) {
    const word = m[2].toLowerCase();
    const month = word === "sept" ? 8 : MONTHS.findIndex((name, i) => word === name || word === MONTH_NAMES[i]);
    return month === -1 ? null : calendarDate(Number(m[3]), month + 1, Number(m[1]));
  }
  return null;
}

const SYMBOLS: Record<string, string> = { "£": "GBP", "€": "EUR" };

/**
 * A money cell in minor units: currency symbols and codes, thousands
 * separators, a leading or trailing minus, parentheses or a `DR` suffix for
 * negatives. Empty is null; anything else that is not money is NaN.
 */
export function parseMoney(input: string): { cents: number | null; currency: string | null } {
  let s = input.trim();
  if (s === "" || s === "-") return { cents: null, currency: null };
  let currency: string | null = null;
  let negative = false;
  const code = /\b(GBP|EUR|USD|CAD|AUD)\b/i.exec(s);
  if (code) {
    currency = code[1].toUpperCase();
    s = s.replace(code[0], "");
  }
  for (const [symbol, iso] of Object.entries(SYMBOLS)) {
    if (s.includes(symbol)) {
      currency ??= iso;
      s = s.replace(symbol, "");
    }
  }
  s = s.replace(/[$\s]/g, "");
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  const suffix = /(CR|DR)$/i.exec(s);
  if (suffix) {
    negative = negative || suffix[1].toUpperCase() === "DR";
    s = s.slice(0, -2);
  }
  if (s.startsWith("-") || s.startsWith("−")) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.endsWith("-")) {
    negative = !negative;
    s = s.slice(0, -1);
  } else if (s.startsWith("+")) s = s.slice(1);
  // Leading symbol after the sign (`-£12.00`) was removed above; `£-12.00` leaves the sign here.
  if (s.startsWith("-")) {
    negative = !negative;
    s = s.slice(1);
  }
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(s)) return { cents: Number.NaN, currency };
  const [whole, fraction = ""] = s.replace(/,/g, "").split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return { cents: negative ? -cents : cents, currency };
}

interface HeaderAt {
  rows: string[][];
  index: number;
  columns: Columns;
}

function findHeader(text: string): HeaderAt | null {
  for (const delimiter of DELIMITERS) {
    const rows = csvRows(text, delimiter);
    for (let index = 0; index < Math.min(rows.length, HEADER_SEARCH_ROWS); index++) {
      const columns = findColumns(rows[index]);
      if (columns) return { rows, index, columns };
    }
  }
  return null;
}

/** Null when no header row is recognised or no row holds a dated transaction. */
export function parseStatementCsv(text: string): ParsedStatement | null {
  const header = findHeader(text.replace(/^\uFEFF/, ""));
  if (!header) return null;
  const { rows, index, columns } = header;
  const lines: StatementLine[] = [];
  let currency = columns.headerCurrency;
  for (const row of rows.slice(index + 1)) {
    const date = parseStatementDate(row[columns.date] ?? "");
    if (!date) continue;
    const cell = (i: number | null) => (i === null ? { cents: null, currency: null } : parseMoney(row[i] ?? ""));
    let cents: number | null;
    const found: (string | null)[] = [];
    if (columns.amount !== null) {
      const amount = cell(columns.amount);
      found.push(amount.currency);
      cents = amount.cents;
    } else {
      const credit = cell(columns.credit);
      const debit = cell(columns.debit);
      found.push(credit.currency, debit.currency);
      // Split columns hold magnitudes; a bank that signs its paid-out column is read the same way.
      cents = credit.cents === null && debit.cents === null ? null : Math.abs(credit.cents ?? 0) - Math.abs(debit.cents ?? 0);
      if (Number.isNaN(credit.cents) || Number.isNaN(debit.cents)) cents = Number.NaN;
    }
    if (cents === null || Number.isNaN(cents)) continue;
    lines.push({ date, cents });
    currency ??= (columns.currency !== null && /^[A-Za-z]{3}$/.test(row[columns.currency] ?? "") ? row[columns.currency].toUpperCase() : null) ?? found.find(Boolean) ?? null;
  }
  return summariseLines(lines, { format: "csv", account_kind: "bank", currency });
}
