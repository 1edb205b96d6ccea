import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { runGuardedBatch } from "../batch";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { portalAuditLog, portalInvitations, portalMembers, portalPasskeys } from "../schema/portal";

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

/**
 * Accepting an invitation, as one D1 batch: the invitation is claimed (only
 * while unused and unexpired), and only if that claim won are the member, the
 * passkey and the audit entry written. Answers false when the invitation was
 * already used or had expired: nothing is written then.
 */
export async function enrolMember(db: Database, e: Enrolment): Promise<boolean> {
  const claimed = sql`exists (select 1 from ${portalInvitations} where ${portalInvitations.id} = ${e.invitationId} and ${portalInvitations.memberId} = ${e.memberId} and ${portalInvitations.acceptedAt} = ${e.at})`;
  const changed = await runGuardedBatch(db, [
    db
      .update(portalInvitations)
      .set({ acceptedAt: e.at, memberId: e.memberId })
      .where(and(eq(portalInvitations.id, e.invitationId), isNull(portalInvitations.acceptedAt), gt(portalInvitations.expiresAt, e.nowSeconds))),
    insertWhere(db, portalMembers, { id: e.memberId, organisationId: e.organisationId, email: e.email, role: e.role, createdAt: e.at, removedAt: null }, claimed).onConflictDoUpdate({
      target: portalMembers.id,
      set: { removedAt: null, role: e.role },
    }),
    insertWhere(
      db,
      portalPasskeys,
      { credentialId: e.passkey.credentialId, memberId: e.memberId, publicKey: e.passkey.publicKey, counter: e.passkey.counter, transports: e.passkey.transports, createdAt: e.at, lastUsedAt: null },
      claimed,
    ),
    insertWhere(
      db,
      portalAuditLog,
      { id: e.auditId, organisationId: e.organisationId, memberId: e.memberId, environment: "sandbox", action: "member.joined", target: e.memberId, at: e.at },
      claimed,
    ),
  ]);
  return changed === 1;
}
