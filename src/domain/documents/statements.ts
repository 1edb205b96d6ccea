/**
 * What a lead's parsed bank statements contribute: the `statements` object of
 * the lead and deal views, and the figures that take precedence over the
 * register and the applicant (monthly revenue, basis `statements`). Only
 * accepted documents count; the latest parsed statement speaks.
 */
import type { StatementFigures } from "../figures";
import type { StoredDocument } from "./types";

const parsedStatements = (docs: readonly StoredDocument[]) =>
  docs.filter((d) => d.state === "accepted" && d.statement !== null).sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));

export function statementSummary(docs: readonly StoredDocument[]) {
  const latest = parsedStatements(docs).at(-1);
  return { has_statements: latest !== undefined, uploaded_at: latest?.receivedAt ?? null, account_kind: latest?.statement?.account_kind ?? null };
}


export function statementFigures(docs: readonly StoredDocument[]): StatementFigures | null {
  const latest = parsedStatements(docs).at(-1);
  return latest?.statement ? { monthly_revenue: latest.statement.monthly_revenue } : null;
}

/** The latest parsed statement's months (credits and debits each), for the lender's deal page; null without one. */
export function statementMonths(docs: readonly StoredDocument[]) {
  const latest = parsedStatements(docs).at(-1)?.statement;
  if (!latest) return null;
  return { period_start: latest.period_start, period_end: latest.period_end, currency: latest.currency, months: latest.months ?? null, credits_total: latest.credits_total, debits_total: latest.debits_total };
}
