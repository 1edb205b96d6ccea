/**
 * Bank and card statements in OFX, both forms: v1 is SGML (elements need not
 * be closed: `<TRNAMT>-12.50` ends at the line or the next tag), v2 is XML.
 * Aggregates (`<STMTTRN>…</STMTTRN>`) are closed in both, so one reading
 * serves both: find each transaction block, read its elements' values.
 */
import { calendarDate, summariseLines, type StatementLine } from "./statement-figures";
import type { ParsedStatement } from "./types";

/** An element's value: up to the next tag or line end (SGML), or to its closing tag (XML). */
const element = (block: string, name: string) => new RegExp(`<${name}>\\s*([^<\\r\\n]*)`, "i").exec(block)?.[1].trim() ?? null;

/** `YYYYMMDD[HHMMSS[.XXX]][[±H:TZ]]`: the booking day is the first eight digits. */
export function ofxDate(value: string | null): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(value ?? "");
  return m ? calendarDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** A signed decimal in minor units; some v1 files write a decimal comma. */
export function ofxAmount(value: string | null): number | null {
  if (!value) return null;
  let s = value.replace(/\s/g, "");
  if (s.includes(",") && !s.includes(".")) s = s.replace(",", ".");
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Math.round(Number(`0.${m[3] ?? "0"}`) * 100);
  return m[1] === "-" ? -cents : cents;
}

/** Null when the file names no bank or card statement, or holds no readable transaction. */
export function parseStatementOfx(text: string): ParsedStatement | null {
  const kind = /<CREDITCARDMSGSRSV1>/i.test(text) ? "card" : /<BANKMSGSRSV1>/i.test(text) ? "bank" : null;
  if (!kind) return null;
  const lines: StatementLine[] = [];
  for (const [, block] of text.matchAll(/<STMTTRN>([\s\S]*?)<\/STMTTRN>/gi)) {
    const date = ofxDate(element(block, "DTPOSTED"));
    const cents = ofxAmount(element(block, "TRNAMT"));
    if (date && cents !== null) lines.push({ date, cents });
  }
  const currency = element(text, "CURDEF");
  return summariseLines(lines, { format: "ofx", account_kind: kind, currency: currency && /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : null });
}
