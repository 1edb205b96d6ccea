/**
 * What an events filter may name: the member's own lead (by its `RF-…` reference
 * or its id) or, for a lender, its own deal by reference. Every lookup is scoped in the query to the
 * organisation and environment; a sandbox business behind a test deal is no one's lead.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { Database } from "../client";
import { deals } from "../schema/deals";
import { leads } from "../schema/leads";

const ownLead = (scope: Scope) => and(eq(leads.organisationId, scope.organisationId), eq(leads.environment, scope.environment), isNull(leads.testDealRef));

/** The id of the organisation's lead with this reference (stored upper-case; the unique (environment, reference) index finds it). */
export async function leadIdOfReference(db: Database, scope: Scope, reference: string) {
  return (await db.select({ id: leads.id }).from(leads).where(and(ownLead(scope), eq(leads.reference, reference.toUpperCase()))).get())?.id ?? null;
}

export async function isOwnLead(db: Database, scope: Scope, id: string) {
  return (await db.select({ id: leads.id }).from(leads).where(and(ownLead(scope), eq(leads.id, id))).get()) !== undefined;
}

/** The lender's deal with this reference, a deleted test deal included: its events outlive it. */
export async function isOwnDeal(db: Database, scope: Scope, ref: string) {
  const row = await db
    .select({ ref: deals.ref })
    .from(deals)
    .where(and(eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), eq(deals.ref, ref.toUpperCase())))
    .get();
  return row !== undefined;
}

/**
 * What the events page shows for its subjects: each of the organisation's leads named
 * by its reference and business name (only the name is read out of the business JSON), scoped in the
 * query to the organisation and environment, so another organisation's id names nothing.
 */
export async function leadNamesOf(db: Database, scope: Scope, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: leads.id, reference: leads.reference, businessName: sql<string | null>`json_extract(${leads.business}, '$.name')` })
    .from(leads)
    .where(and(ownLead(scope), inArray(leads.id, [...ids])))
    .all();
}

/** The lender's deals by reference with the business's name, scoped in the query to the lender and environment. */
export async function dealNamesOf(db: Database, scope: Scope, refs: readonly string[]) {
  if (refs.length === 0) return [];
  return db
    .select({ ref: deals.ref, businessName: sql<string | null>`json_extract(${deals.subject}, '$.business.name')` })
    .from(deals)
    .where(and(eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), inArray(deals.ref, [...refs])))
    .all();
}
