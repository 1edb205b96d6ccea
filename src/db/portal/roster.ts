import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { runGuardedBatch } from "../batch";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { portalAuditLog, portalMembers, portalPasskeys, portalSessions } from "../schema/portal";
import { writeOrder } from "../write-order";
import { revokeOtherInvitations } from "./invitations";

/** An organisation's current members, oldest first. */
export async function listMembers(db: Database, organisationId: string) {
  return db
    .select({ id: portalMembers.id, email: portalMembers.email, role: portalMembers.role, createdAt: portalMembers.createdAt })
    .from(portalMembers)
    .where(and(eq(portalMembers.organisationId, organisationId), isNull(portalMembers.removedAt)))
    .orderBy(asc(portalMembers.createdAt), asc(writeOrder(portalMembers)));
}

/** A member of any state, by email: a removed member invited again comes back under the same id. */
export async function findMemberOfAnyState(db: Database, organisationId: string, email: string) {
  const [row] = await db
    .select()
    .from(portalMembers)
    .where(and(eq(portalMembers.organisationId, organisationId), eq(portalMembers.email, email)))
    .limit(1);
  return row ?? null;
}

export interface Removal {
  organisationId: string;
  memberId: string;
  at: string;
  audit: { id: string; memberId: string; environment: "sandbox" | "live" };
}

/**
 * Removes a member of this organisation and, in the same batch, deletes their
 * sessions and passkeys, revokes every pending invitation for their email
 * (so neither an old link nor an old passkey brings them back; issue 21
 * item 1) and writes the audit entry; false when there is no such current
 * member here (another organisation's id finds nothing).
 */
export async function removeMember(db: Database, r: Removal): Promise<boolean> {
  const removedNow = removedAtThisMoment(r);
  const changed = await runGuardedBatch(db, [
    db
      .update(portalMembers)
      .set({ removedAt: r.at })
      .where(and(eq(portalMembers.id, r.memberId), eq(portalMembers.organisationId, r.organisationId), isNull(portalMembers.removedAt))),
    db.delete(portalSessions).where(and(eq(portalSessions.memberId, r.memberId), eq(portalSessions.organisationId, r.organisationId), removedNow)),
    db.delete(portalPasskeys).where(and(eq(portalPasskeys.memberId, r.memberId), removedNow)),
    revokeOtherInvitations(
      db,
      r.organisationId,
      sql`(select ${portalMembers.email} from ${portalMembers} where ${portalMembers.id} = ${r.memberId})`,
      r.at,
      null,
      removedNow,
    ),
    insertWhere(
      db,
      portalAuditLog,
      { id: r.audit.id, organisationId: r.organisationId, memberId: r.audit.memberId, environment: r.audit.environment, action: "member.removed", target: r.memberId, at: r.at },
      removedNow,
    ),
  ]);
  return changed === 1;
}

const removedAtThisMoment = (r: Removal) =>
  sql`exists (select 1 from ${portalMembers} where ${portalMembers.id} = ${r.memberId} and ${portalMembers.organisationId} = ${r.organisationId} and ${portalMembers.removedAt} = ${r.at})`;

/** Every member the organisation ever had (removed ones too), to name who did what in the audit log. */
export async function memberEmailsOf(db: Database, organisationId: string) {
  return db.select({ id: portalMembers.id, email: portalMembers.email }).from(portalMembers).where(eq(portalMembers.organisationId, organisationId));
}
