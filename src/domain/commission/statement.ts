/**
 * A partner's commission statement for a month: its entries, their totals by kind and currency, and the
 * same as CSV. The CSV's `total` line is the sum of its entry lines' amounts, which is the sum of the
 * list's amounts for the month (the same entries), so a finance team can reconcile either with the other.
 */
import { minorToDecimal, type CurrencyCode } from "./money";

type EntryKind = "accrued" | "paid" | "clawed_back";

/** An entry as the partner reads it: the option's product family, never the lender. */
export interface StatementEntry {
  id: string;
  kind: EntryKind;
  lead_id: string;
  product_family: string | null;
  amount: number;
  currency: CurrencyCode;
  funded_amount: number | null;
  payment_reference: string | null;
  reason: string | null;
  created_at: string;
}

interface StatementTotal {
  currency: CurrencyCode;
  accrued: number;
  paid: number;
  clawed_back: number;
  /** accrued + paid + clawed_back (paid and clawed back are negative): the month's movement of what is outstanding. */
  net: number;
}

/** Totals per currency (a partner introducing in several markets is paid in several currencies), in currency order of first appearance. */
export function statementTotals(entries: readonly Pick<StatementEntry, "kind" | "amount" | "currency">[]): StatementTotal[] {
  const totals = new Map<CurrencyCode, StatementTotal>();
  for (const e of entries) {
    const t = totals.get(e.currency) ?? { currency: e.currency, accrued: 0, paid: 0, clawed_back: 0, net: 0 };
    t[e.kind] += e.amount;
    t.net += e.amount;
    totals.set(e.currency, t);
  }
  return [...totals.values()];
}

const CSV_HEADER = ["entry_id", "created_at", "kind", "lead_id", "product_family", "currency", "amount", "amount_minor", "funded_amount", "payment_reference", "reason"];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; a leading formula character is neutralised for spreadsheets. */
function field(value: string | number | null): string {
  let text = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === "string") text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The statement as CSV: one line per entry (oldest first), then one `total` line per currency whose
 * `amount_minor` is the sum of that currency's entry lines. `amount` is the same figure in major units.
 */
export function statementCsv(entries: readonly StatementEntry[]): string {
  const lines = [CSV_HEADER.join(",")];
  for (const e of entries) {
    lines.push(
      [e.id, e.created_at, e.kind, e.lead_id, e.product_family, e.currency, minorToDecimal(e.amount, e.currency), e.amount, e.funded_amount === null ? null : minorToDecimal(e.funded_amount, e.currency), e.payment_reference, e.reason]
        .map(field)
        .join(","),
    );
  }
  for (const t of statementTotals(entries)) lines.push(["total", "", "net", "", "", t.currency, minorToDecimal(t.net, t.currency), t.net, "", "", ""].map(field).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
