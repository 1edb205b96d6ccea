/**
 * Reading the ledger: the partner's list and monthly statement, the lender's list, the operator's list
 * and totals. Every read is scoped in SQL to the caller's organisation and environment (the operator
 * names the environment), so the sandbox ledger and the live one never mix and another account's
 * entry is simply not there.
 */
import { depsIn, type Deps } from "../deps";
import { entriesOfMonth, entryTotals, listEntries, type EntryFilters, type Owner } from "../../db/commission/ledger";
import { monthRange } from "../../domain/commission/month";
import { statementCsv, statementTotals } from "../../domain/commission/statement";
import type { Scope } from "../../domain/identity/caller";
import type { Environment } from "../../domain/identity/keys";
import { nextKeysetCursor, readKeysetCursor } from "../../lib/cursor";
import { signingSecretOf } from "../../lib/signing-secret";
import { lenderEntryView, operatorEntryView, partnerEntryView } from "./views";

/** A cursor is read back only by the same reader with the same filters (they are part of its signed scope). */
const cursorScope = (owner: Owner, filters: EntryFilters) => {
  const who = "partner" in owner ? `p:${owner.partner.organisationId}:${owner.partner.environment}` : "lender" in owner ? `l:${owner.lender.organisationId}:${owner.lender.environment}` : `o:${owner.environment}:${owner.partnerOrganisationId ?? ""}`;
  return `commissions:${who}:${filters.kind ?? ""}:${filters.month ?? ""}`;
};

async function page(deps: Deps, owner: Owner, filters: EntryFilters, cursor: string | undefined, limit: number) {
  const secret = signingSecretOf(deps.env);
  const after = await readKeysetCursor(cursor, cursorScope(owner, filters), secret);
  const found = await listEntries(deps.db, owner, filters, after, limit);
  return { entries: found.entries, nextCursor: await nextKeysetCursor(found.last, found.more, cursorScope(owner, filters), secret) };
}

export async function partnerCommissions(deps: Deps, scope: Scope, filters: EntryFilters, cursor: string | undefined, limit: number) {
  const found = await page(deps, { partner: scope }, filters, cursor, limit);
  return { commissions: found.entries.map(partnerEntryView), next_cursor: found.nextCursor };
}

/** The partner's statement of a month: its entries oldest first and the totals per currency; `csv` is the same as text/csv. */
export async function partnerStatement(deps: Deps, scope: Scope, month: string) {
  const entries = (await entriesOfMonth(deps.db, { partner: scope }, month)).map(partnerEntryView);
  const period = monthRange(month);
  return {
    statement: { month, from: period.from, until: period.until, environment: scope.environment, totals: statementTotals(entries), entries },
    csv: () => statementCsv(entries),
  };
}

export async function lenderCommissions(deps: Deps, scope: Scope, filters: EntryFilters, cursor: string | undefined, limit: number) {
  const found = await page(deps, { lender: scope }, filters, cursor, limit);
  return { commissions: found.entries.map(lenderEntryView), next_cursor: found.nextCursor };
}

/**
 * The operator names the environment (`?environment=`, live by default), and that chooses the database
 * the ledger is read from: a sandbox deal's entries are written with its funded report, in the sandbox's
 * database (docs/capacity.md, "Which database a table belongs to").
 */
export async function operatorCommissions(deps: Deps, environment: Environment, partnerOrganisationId: string | undefined, filters: EntryFilters, cursor: string | undefined, limit: number) {
  const found = await page(depsIn(deps, environment), { environment, partnerOrganisationId }, filters, cursor, limit);
  return { commissions: found.entries.map(operatorEntryView), next_cursor: found.nextCursor };
}

/** Totals per partner, month and currency: each kind's sum and the net, as the partner's statement totals them. */
export async function operatorTotals(deps: Deps, environment: Environment, month: string | undefined) {
  const rows = await entryTotals(depsIn(deps, environment).db, environment, month);
  const byKey = new Map<string, { partner_organisation_id: string; month: string; currency: string; accrued: number; paid: number; clawed_back: number; net: number; entries: number }>();
  for (const r of rows) {
    const key = `${r.partnerOrganisationId}|${r.month}|${r.currency}`;
    const t = byKey.get(key) ?? { partner_organisation_id: r.partnerOrganisationId, month: r.month, currency: r.currency, accrued: 0, paid: 0, clawed_back: 0, net: 0, entries: 0 };
    t[r.kind] += r.amount;
    t.net += r.amount;
    t.entries += r.entries;
    byKey.set(key, t);
  }
  return { environment, totals: [...byKey.values()] };
}
