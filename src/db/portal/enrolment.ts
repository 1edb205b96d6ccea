import { and, eq, gt, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { runGuardedBatch } from "../batch";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { portalAuditLog, portalInvitations, portalMembers, portalPasskeys, portalReplacedPasskeys, portalSessions } from "../schema/portal";
import { issuerStillAdmin, revokeOtherInvitations } from "./invitations";

export interface Enrolment {
  invitationId: string;
  /** The member's id: a new one, or that of the removed member the invitation brings back. */
  memberId: string;
  organisationId: string;
  email: string;
  role: "admin" | "member";
  passkey: { credentialId: string; publicKey: string; counter: number; transports: string[] };
  auditId: string;
  at: string;
  nowSeconds: number;
}

/** The new passkey and the audit entry saying why it was made: written only while `claimed` holds. */
const passkeyWithAudit = (
  db: Database,
  e: Pick<Enrolment, "passkey" | "memberId" | "organisationId" | "auditId" | "at">,
  action: "member.joined" | "member.reenrolled",
  claimed: SQL,
) =>
  [
    insertWhere(
      db,
      portalPasskeys,
      { credentialId: e.passkey.credentialId, memberId: e.memberId, publicKey: e.passkey.publicKey, counter: e.passkey.counter, transports: e.passkey.transports, createdAt: e.at, lastUsedAt: null },
      claimed,
    ),
    insertWhere(db, portalAuditLog, { id: e.auditId, organisationId: e.organisationId, memberId: e.memberId, environment: "sandbox", action, target: e.memberId, at: e.at }, claimed),
  ] as const;

/**
 * Accepting an invitation, as one D1 batch: the invitation is claimed (only
 * while unused, unrevoked, unexpired, while nobody with its email is a
 * current member of the organisation and while its issuer is the operator or
 * still a current admin), and only if that claim won are the
 * member, the passkey, the audit entry and the revocation of every other
 * pending invitation for that email written. A current member's row is never
 * touched (an invitation never changes a role); a removed
 * member's row is reopened with the invitation's role (their passkeys were
 * deleted at removal). Answers false when nothing was written.
 */
export async function enrolMember(db: Database, e: Enrolment): Promise<boolean> {
  const claimed = sql`exists (select 1 from ${portalInvitations} where ${portalInvitations.id} = ${e.invitationId} and ${portalInvitations.memberId} = ${e.memberId} and ${portalInvitations.acceptedAt} = ${e.at})`;
  const noCurrentMember = sql`not exists (select 1 from ${portalMembers} where ${portalMembers.organisationId} = ${e.organisationId} and ${portalMembers.email} = ${e.email} and ${portalMembers.removedAt} is null)`;
  const changed = await runGuardedBatch(db, [
    db
      .update(portalInvitations)
      .set({ acceptedAt: e.at, memberId: e.memberId })
      .where(
        and(
          eq(portalInvitations.id, e.invitationId),
          isNull(portalInvitations.memberId),
          isNull(portalInvitations.acceptedAt),
          isNull(portalInvitations.revokedAt),
          gt(portalInvitations.expiresAt, e.nowSeconds),
          noCurrentMember,
          issuerStillAdmin(e.invitationId),
        ),
      ),
    insertWhere(db, portalMembers, { id: e.memberId, organisationId: e.organisationId, email: e.email, role: e.role, createdAt: e.at, removedAt: null }, claimed).onConflictDoUpdate({
      target: portalMembers.id,
      set: { removedAt: null, role: e.role },
      setWhere: isNotNull(portalMembers.removedAt),
    }),
    ...passkeyWithAudit(db, e, "member.joined", claimed),
    revokeOtherInvitations(db, e.organisationId, e.email, e.at, e.invitationId, claimed),
  ]);
  return changed === 1;
}

interface Reenrolment {
  invitationId: string;
  /** The current member the invitation was issued for (`portal_invitations.member_id` set when it was issued). */
  memberId: string;
  organisationId: string;
  email: string;
  passkey: Enrolment["passkey"];
  auditId: string;
  at: string;
  nowSeconds: number;
}

/**
 * Accepting a new sign-in link (a lost passkey), as one D1 batch: the invitation is claimed only
 * while unused, unrevoked, unexpired, issued for this member and while the member is current; and
 * while its issuer is the operator or still a current admin, and, unless the
 * operator issued it, while the member is no admin (only the operator replaces an admin's
 * passkeys). Only if that claim won are the member's sessions deleted, every passkey of theirs
 * kept in `portal_replaced_passkeys` with this link (so its holder is told at their next sign-in)
 * and deleted, the new passkey stored, `member.reenrolled` written and the email's other pending
 * invitations revoked. The member row is not touched: the id and the role stay (an invitation never
 * changes a role).
 */
export async function reenrolMember(db: Database, e: Reenrolment): Promise<boolean> {
  const claimed = sql`exists (select 1 from ${portalInvitations} where ${portalInvitations.id} = ${e.invitationId} and ${portalInvitations.memberId} = ${e.memberId} and ${portalInvitations.acceptedAt} = ${e.at})`;
  const currentMember = sql`exists (select 1 from ${portalMembers} where ${portalMembers.id} = ${e.memberId} and ${portalMembers.organisationId} = ${e.organisationId} and ${portalMembers.email} = ${e.email} and ${portalMembers.removedAt} is null)`;
  const replaceableByIssuer = sql`(${portalInvitations.invitedBy} = 'operator' or exists (select 1 from ${portalMembers} as target where target.id = ${e.memberId} and target.role = 'member'))`;
  const changed = await runGuardedBatch(db, [
    db
      .update(portalInvitations)
      .set({ acceptedAt: e.at })
      .where(
        and(
          eq(portalInvitations.id, e.invitationId),
          eq(portalInvitations.organisationId, e.organisationId),
          eq(portalInvitations.memberId, e.memberId),
          isNull(portalInvitations.acceptedAt),
          isNull(portalInvitations.revokedAt),
          gt(portalInvitations.expiresAt, e.nowSeconds),
          currentMember,
          issuerStillAdmin(e.invitationId),
          replaceableByIssuer,
        ),
      ),
    db.delete(portalSessions).where(and(eq(portalSessions.memberId, e.memberId), eq(portalSessions.organisationId, e.organisationId), claimed)),
    db.insert(portalReplacedPasskeys).select(
      db
        .select({
          credentialId: portalPasskeys.credentialId,
          memberId: portalPasskeys.memberId,
          publicKey: portalPasskeys.publicKey,
          counter: portalPasskeys.counter,
          invitationId: sql`${e.invitationId}`.as("invitation_id"),
          replacedAt: sql`${e.at}`.as("replaced_at"),
        })
        .from(portalPasskeys)
        .where(and(eq(portalPasskeys.memberId, e.memberId), claimed)),
    ),
    db.delete(portalPasskeys).where(and(eq(portalPasskeys.memberId, e.memberId), claimed)),
    ...passkeyWithAudit(db, e, "member.reenrolled", claimed),
    revokeOtherInvitations(db, e.organisationId, e.email, e.at, e.invitationId, claimed),
  ]);
  return changed === 1;
}
