import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { runGuardedBatch } from "../batch";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { portalAuditLog, portalMembers, portalPasskeys, portalSessions } from "../schema/portal";
import { writeOrder } from "../write-order";
import { revokeInvitationsIssuedBy, revokeOtherInvitations } from "./invitations";

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
 * (so neither an old link nor an old passkey brings them back) and every pending link they issued (a removed
 * admin's invitations and new sign-in links die with them), and writes the
 * audit entry; false when nothing was written. The
 * removal's own condition is read inside the batch: the
 * member is a current member here, the actor (`audit.memberId`) is still a
 * current admin of the organisation and someone else, and an admin other than
 * the removed member remains, so two admins removing each other at the same
 * moment cannot both win.
 */
export async function removeMember(db: Database, r: Removal): Promise<boolean> {
  const removedNow = removedAtThisMoment(r);
  const actorStillAdmin = sql`${r.audit.memberId} <> ${r.memberId} and exists (select 1 from ${portalMembers} as actor where actor.id = ${r.audit.memberId}
    and actor.organisation_id = ${r.organisationId} and actor.removed_at is null and actor.role = 'admin')`;
  const anotherAdminRemains = sql`exists (select 1 from ${portalMembers} as admins where admins.organisation_id = ${r.organisationId} and admins.removed_at is null
    and admins.role = 'admin' and admins.id <> ${r.memberId})`;
  const changed = await runGuardedBatch(db, [
    db
      .update(portalMembers)
      .set({ removedAt: r.at })
      .where(and(eq(portalMembers.id, r.memberId), eq(portalMembers.organisationId, r.organisationId), isNull(portalMembers.removedAt), actorStillAdmin, anotherAdminRemains)),
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
    revokeInvitationsIssuedBy(db, r.organisationId, r.memberId, r.at, removedNow),
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

/** A current member of this organisation by id (another organisation's id or a removed member finds nothing). */
export async function findCurrentMember(db: Database, organisationId: string, memberId: string) {
  const [row] = await db
    .select({ id: portalMembers.id, email: portalMembers.email, role: portalMembers.role, createdAt: portalMembers.createdAt })
    .from(portalMembers)
    .where(and(eq(portalMembers.id, memberId), eq(portalMembers.organisationId, organisationId), isNull(portalMembers.removedAt)))
    .limit(1);
  return row ?? null;
}

interface RoleChange {
  organisationId: string;
  memberId: string;
  role: "admin" | "member";
  at: string;
  audit: { id: string; memberId: string; environment: "sandbox" | "live" };
}

/**
 * Changes a current member's role with its audit entry (`member.role_changed_to_<role>`) in one
 * batch; false when the condition fails: no such current member here, the role is already theirs,
 * or the change would leave the organisation without an admin. The condition is read inside the
 * batch (one transaction), by the audit insert first and the update second, so two admins demoting
 * each other at once cannot both win and the audit row exists exactly when the role changed.
 */
export async function changeMemberRole(db: Database, r: RoleChange): Promise<boolean> {
  const allowed = sql`exists (select 1 from ${portalMembers} where ${portalMembers.id} = ${r.memberId} and ${portalMembers.organisationId} = ${r.organisationId}
    and ${portalMembers.removedAt} is null and ${portalMembers.role} <> ${r.role}
    and (${r.role} = 'admin' or exists (select 1 from ${portalMembers} as admins where admins.organisation_id = ${r.organisationId} and admins.removed_at is null
      and admins.role = 'admin' and admins.id <> ${r.memberId})))`;
  const written = sql`exists (select 1 from ${portalAuditLog} where ${portalAuditLog.id} = ${r.audit.id})`;
  const changed = await runGuardedBatch(db, [
    insertWhere(
      db,
      portalAuditLog,
      { id: r.audit.id, organisationId: r.organisationId, memberId: r.audit.memberId, environment: r.audit.environment, action: `member.role_changed_to_${r.role}`, target: r.memberId, at: r.at },
      allowed,
    ),
    db
      .update(portalMembers)
      .set({ role: r.role })
      .where(and(eq(portalMembers.id, r.memberId), eq(portalMembers.organisationId, r.organisationId), isNull(portalMembers.removedAt), allowed)),
    // A member who is no admin now issues nothing: what they issued as one dies with the role.
    ...(r.role === "member" ? [revokeInvitationsIssuedBy(db, r.organisationId, r.memberId, r.at, written)] : []),
  ]);
  return changed === 1;
}
