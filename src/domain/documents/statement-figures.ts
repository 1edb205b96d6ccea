/**
 * What every parsed statement reduces to, whatever its format: totals in
 * integer pence (cents) so sums never drift, the period the transactions
 * cover, and monthly revenue as credits per calendar month spanned.
 */
import type { ParsedStatement } from "./types";

/** One booked line: a calendar date (`YYYY-MM-DD`) and a signed amount in minor units (credits positive). */
export interface StatementLine {
  date: string;
  cents: number;
}

/** Calendar months from the first date's month to the last date's month, inclusive (a single day is one month). */
export function monthsSpanned(start: string, end: string) {
  const month = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7)) - 1;
  return Math.max(1, month(end) - month(start) + 1);
}

/** `YYYY-MM` of every calendar month from the first date's to the last date's, inclusive. */
function monthsBetween(start: string, end: string): string[] {
  const first = Number(start.slice(0, 4)) * 12 + Number(start.slice(5, 7)) - 1;
  return Array.from({ length: monthsSpanned(start, end) }, (_, i) => {
    const m = first + i;
    return `${String(Math.floor(m / 12)).padStart(4, "0")}-${String((m % 12) + 1).padStart(2, "0")}`;
  });
}

const major = (cents: number) => Math.round(cents) / 100;

/** Null when there is nothing to summarise: a statement without transactions is unreadable. */
export function summariseLines(
  lines: readonly StatementLine[],
  meta: Pick<ParsedStatement, "format" | "account_kind" | "currency">,
): ParsedStatement | null {
  if (lines.length === 0) return null;
  const dates = lines.map((l) => l.date).sort();
  const creditCents = lines.reduce((sum, l) => (l.cents > 0 ? sum + l.cents : sum), 0);
  const debitCents = lines.reduce((sum, l) => (l.cents < 0 ? sum - l.cents : sum), 0);
  const byMonth = new Map<string, { credits: number; debits: number }>();
  for (const l of lines) {
    const m = byMonth.get(l.date.slice(0, 7)) ?? { credits: 0, debits: 0 };
    if (l.cents > 0) m.credits += l.cents;
    else m.debits -= l.cents;
    byMonth.set(l.date.slice(0, 7), m);
  }
  const periodStart = dates[0];
  const periodEnd = dates[dates.length - 1];
  return {
    ...meta,
    period_start: periodStart,
    period_end: periodEnd,
    transaction_count: lines.length,
    credits_total: major(creditCents),
    debits_total: major(debitCents),
    monthly_revenue: major(Math.round(creditCents / monthsSpanned(periodStart, periodEnd))),
    // Every month the period spans, a quiet one as zero: a gap is a fact an underwriter reads.
    months: monthsBetween(periodStart, periodEnd).map((month) => ({ month, credits: major(byMonth.get(month)?.credits ?? 0), debits: major(byMonth.get(month)?.debits ?? 0) })),
  };
}

/** A real calendar date as `YYYY-MM-DD`, or null (30 February is not a date). */
export function calendarDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
