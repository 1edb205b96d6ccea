/**
 * The lender's working set on a deal: who is assigned, and the internal notes.
 * Every read and write is scoped in the query to the lender organisation and environment.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { Database } from "../client";
import { dealNotes, deals } from "../schema/deals";
import { portalMembers } from "../schema/portal";
import { dealInScope } from "./deals";
import { writeOrder } from "../write-order";

/** The member the deal is assigned to (null: nobody), only while they are a current member of the same organisation. */
export const assignmentUpdate = (db: Database, scope: Scope, ref: string, memberId: string | null, at: string) =>
  db.update(deals).set({ assigneeMemberId: memberId, updatedAt: at }).where(dealInScope(scope, ref));

/** The member id the deal is assigned to (null: nobody); the portal's members are control rows, matched by the service (docs/capacity.md). */
export async function assigneeIdOf(db: Database, scope: Scope, ref: string) {
  const row = await db.select({ id: deals.assigneeMemberId }).from(deals).where(dealInScope(scope, ref)).get();
  return row?.id ?? null;
}

/** The organisation's current members, for the assignment list. */
export async function colleaguesOf(db: Database, scope: Scope) {
  return db
    .select({ id: portalMembers.id, email: portalMembers.email })
    .from(portalMembers)
    .where(and(eq(portalMembers.organisationId, scope.organisationId), isNull(portalMembers.removedAt)))
    .orderBy(asc(portalMembers.email))
    .all();
}

export const noteInsert = (db: Database, scope: Scope, note: { id: string; ref: string; memberId: string; body: string; at: string }) =>
  db.insert(dealNotes).values({ id: note.id, dealRef: note.ref, lenderOrganisationId: scope.organisationId, environment: scope.environment, memberId: note.memberId, body: note.body, createdAt: note.at });

/** The deal's notes, oldest first, with their author's member id (the service names the author). */
export async function notesOf(db: Database, scope: Scope, ref: string) {
  return db
    .select({ id: dealNotes.id, body: dealNotes.body, createdAt: dealNotes.createdAt, memberId: dealNotes.memberId })
    .from(dealNotes)
    .where(and(eq(dealNotes.lenderOrganisationId, scope.organisationId), eq(dealNotes.environment, scope.environment), eq(dealNotes.dealRef, ref)))
    .orderBy(asc(dealNotes.createdAt), asc(writeOrder(dealNotes)))
    .all();
}
