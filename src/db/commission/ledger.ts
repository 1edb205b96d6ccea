/**
 * The commission ledger (db/schema/commission.ts): inserts only. Every read names the environment in
 * its SQL (the sandbox and live ledgers never mix) and the partner or lender whose entries it reads.
 */
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Environment } from "../../domain/identity/keys";
import type { Scope } from "../../domain/identity/caller";
import type { KeysetPosition } from "../../lib/cursor";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { commissionEntries, type CommissionEntryRow } from "../schema/commission";
import { writeOrder, writtenBefore } from "../write-order";

export type NewCommissionEntry = typeof commissionEntries.$inferInsert;
export type { CommissionEntryRow };
type EntryKind = CommissionEntryRow["kind"];

/**
 * An entry written only if `guard` holds when the batch reaches it (the funded report's winning
 * update, the repayment report's). A second accrual for the lead, or a second `paid` or `clawed_back`
 * for one accrual, is ignored by the unique indexes: the last word on a race the guard already decided.
 */
export const entryInsertWhere = (db: Database, entry: NewCommissionEntry, guard: SQL) => insertWhere(db, commissionEntries, entry, guard).onConflictDoNothing();

/** An entry on its own (the operator's `paid`): the unique index refuses a second one for the same accrual. */
export const entryInsert = (db: Database, entry: NewCommissionEntry) => db.insert(commissionEntries).values(entry).onConflictDoNothing();

export async function findEntry(db: Database, environment: Environment, id: string) {
  return (await db.select().from(commissionEntries).where(and(eq(commissionEntries.environment, environment), eq(commissionEntries.id, id))).get()) ?? null;
}

/** The accrual of a lead in an environment, if the lead's funding accrued one. */
export async function accrualOfLead(db: Database, environment: Environment, leadId: string) {
  return (
    (await db
      .select()
      .from(commissionEntries)
      .where(and(eq(commissionEntries.environment, environment), eq(commissionEntries.leadId, leadId), eq(commissionEntries.kind, "accrued")))
      .get()) ?? null
  );
}

/** The entries following one accrual (its `paid`, its `clawed_back`). Keyed by the accrual read in scope first. */
export async function followUpsOf(db: Database, environment: Environment, accruedEntryId: string) {
  return db.select().from(commissionEntries).where(and(eq(commissionEntries.environment, environment), eq(commissionEntries.accruedEntryId, accruedEntryId)));
}

/** True inside a batch once the entry exists (a guard for what follows it). */
export const entryWritten = (id: string) => sql`exists (select 1 from ${commissionEntries} where ${commissionEntries.id} = ${id})`;

export interface EntryFilters {
  kind?: EntryKind;
  month?: string;
}

/** Whose entries a list reads: a partner's, a lender's, or (the operator) everyone's in the environment. */
export type Owner = { partner: Scope } | { lender: Scope } | { environment: Environment; partnerOrganisationId?: string };

function ownerConditions(owner: Owner): SQL[] {
  if ("partner" in owner) return [eq(commissionEntries.partnerOrganisationId, owner.partner.organisationId), eq(commissionEntries.environment, owner.partner.environment)];
  if ("lender" in owner) return [eq(commissionEntries.lenderOrganisationId, owner.lender.organisationId), eq(commissionEntries.environment, owner.lender.environment)];
  const own = [eq(commissionEntries.environment, owner.environment)];
  if (owner.partnerOrganisationId !== undefined) own.push(eq(commissionEntries.partnerOrganisationId, owner.partnerOrganisationId));
  return own;
}

const filterConditions = (filters: EntryFilters): SQL[] => [
  ...(filters.kind ? [eq(commissionEntries.kind, filters.kind)] : []),
  ...(filters.month ? [eq(commissionEntries.month, filters.month)] : []),
];

/** Newest first, keyset on (created_at, rowid) like every list (db/write-order.ts); one extra row tells whether there is more. */
export async function listEntries(db: Database, owner: Owner, filters: EntryFilters, after: KeysetPosition | null, limit: number) {
  const rows = await db
    .select({ entry: commissionEntries, seq: writeOrder(commissionEntries) })
    .from(commissionEntries)
    .where(and(...ownerConditions(owner), ...filterConditions(filters), after ? writtenBefore(commissionEntries, commissionEntries.createdAt, after) : undefined))
    .orderBy(desc(commissionEntries.createdAt), desc(writeOrder(commissionEntries)))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { entries: page.map((r) => r.entry), more: rows.length > limit, last: last ? { createdAt: last.entry.createdAt, seq: last.seq } : undefined };
}

/** Every entry of a month, oldest first: a statement (a month of one partner is a few hundred rows at most). */
export async function entriesOfMonth(db: Database, owner: Owner, month: string) {
  return db
    .select()
    .from(commissionEntries)
    .where(and(...ownerConditions(owner), eq(commissionEntries.month, month)))
    .orderBy(asc(commissionEntries.createdAt), asc(writeOrder(commissionEntries)));
}

/** The operator's totals: per partner, month, currency and kind, in one environment (optionally one month). */
export async function entryTotals(db: Database, environment: Environment, month?: string) {
  return db
    .select({
      partnerOrganisationId: commissionEntries.partnerOrganisationId,
      month: commissionEntries.month,
      currency: commissionEntries.currency,
      kind: commissionEntries.kind,
      amount: sql<number>`sum(${commissionEntries.amount})`.mapWith(Number),
      entries: sql<number>`count(*)`.mapWith(Number),
    })
    .from(commissionEntries)
    .where(and(eq(commissionEntries.environment, environment), month ? eq(commissionEntries.month, month) : undefined))
    .groupBy(commissionEntries.partnerOrganisationId, commissionEntries.month, commissionEntries.currency, commissionEntries.kind)
    .orderBy(asc(commissionEntries.month), asc(commissionEntries.partnerOrganisationId), asc(commissionEntries.currency));
}
