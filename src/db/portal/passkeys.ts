import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { runGuardedBatch } from "../batch";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { alias } from "drizzle-orm/sqlite-core";
import { portalAuditLog, portalInvitations, portalMembers, portalPasskeys, portalReplacedPasskeys } from "../schema/portal";

/** A passkey with its member, only while the member has not been removed. */
export async function findPasskeyOfLiveMember(db: Database, credentialId: string) {
  const [row] = await db
    .select({ passkey: portalPasskeys, member: { id: portalMembers.id, organisationId: portalMembers.organisationId } })
    .from(portalPasskeys)
    .innerJoin(portalMembers, eq(portalMembers.id, portalPasskeys.memberId))
    .where(and(eq(portalPasskeys.credentialId, credentialId), isNull(portalMembers.removedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Records a successful use. The counter only moves forward (a passkey that
 * reports 0 every time, as synced passkeys do, stays at 0); a concurrent use
 * that already moved it further wins, and 0 rows changed tells the caller.
 */
export async function recordPasskeyUse(db: Database, credentialId: string, counter: number, at: string) {
  const result = await db
    .update(portalPasskeys)
    .set({ counter, lastUsedAt: at })
    .where(and(eq(portalPasskeys.credentialId, credentialId), or(lt(portalPasskeys.counter, counter), and(eq(portalPasskeys.counter, 0), eq(portalPasskeys.counter, counter)))))
    .run();
  return (result as unknown as D1Result).meta.changes;
}

/** One member's passkeys, oldest first (never the public key). */
export async function listMemberPasskeys(db: Database, memberId: string) {
  return db
    .select({ credentialId: portalPasskeys.credentialId, transports: portalPasskeys.transports, createdAt: portalPasskeys.createdAt, lastUsedAt: portalPasskeys.lastUsedAt })
    .from(portalPasskeys)
    .where(eq(portalPasskeys.memberId, memberId))
    .orderBy(asc(portalPasskeys.createdAt), asc(portalPasskeys.credentialId));
}

interface PasskeyChange {
  organisationId: string;
  memberId: string;
  environment: "sandbox" | "live";
  auditId: string;
  at: string;
}

/** A signed-in member's further passkey with its audit entry (`passkey.added`, target: the member), in one batch. */
export async function addMemberPasskey(db: Database, c: PasskeyChange, passkey: { credentialId: string; publicKey: string; counter: number; transports: string[] }) {
  await db.batch([
    db.insert(portalPasskeys).values({ ...passkey, memberId: c.memberId, createdAt: c.at, lastUsedAt: null }),
    db.insert(portalAuditLog).values({ id: c.auditId, organisationId: c.organisationId, memberId: c.memberId, environment: c.environment, action: "passkey.added", target: c.memberId, at: c.at }),
  ]);
}

/**
 * Deletes one of the member's own passkeys with its audit entry (`passkey.removed`), in one batch
 * whose condition is read inside it: the passkey is this member's and they keep at least one other,
 * so nobody removes their last way in, even with two tabs at once. False when nothing was written.
 */
export async function removeMemberPasskey(db: Database, c: PasskeyChange, credentialId: string): Promise<boolean> {
  const allowed = sql`exists (select 1 from ${portalPasskeys} where ${portalPasskeys.credentialId} = ${credentialId} and ${portalPasskeys.memberId} = ${c.memberId})
    and exists (select 1 from ${portalPasskeys} as others where others.member_id = ${c.memberId} and others.credential_id <> ${credentialId})`;
  const changed = await runGuardedBatch(db, [
    insertWhere(db, portalAuditLog, { id: c.auditId, organisationId: c.organisationId, memberId: c.memberId, environment: c.environment, action: "passkey.removed", target: c.memberId, at: c.at }, allowed),
    db.delete(portalPasskeys).where(and(eq(portalPasskeys.credentialId, credentialId), eq(portalPasskeys.memberId, c.memberId), allowed)),
  ]);
  return changed === 1;
}

const issuers = alias(portalMembers, "issuers");

/**
 * A passkey a new sign-in link replaced, with when, the link's issuer (`operator` or a
 * member id) and that member's email (null for the operator); null for any other credential.
 */
export async function findReplacedPasskey(db: Database, credentialId: string) {
  const [row] = await db
    .select({
      credentialId: portalReplacedPasskeys.credentialId,
      publicKey: portalReplacedPasskeys.publicKey,
      counter: portalReplacedPasskeys.counter,
      replacedAt: portalReplacedPasskeys.replacedAt,
      invitedBy: portalInvitations.invitedBy,
      issuerEmail: issuers.email,
    })
    .from(portalReplacedPasskeys)
    .innerJoin(portalInvitations, eq(portalInvitations.id, portalReplacedPasskeys.invitationId))
    .leftJoin(issuers, and(eq(issuers.id, portalInvitations.invitedBy), eq(issuers.organisationId, portalInvitations.organisationId)))
    .where(eq(portalReplacedPasskeys.credentialId, credentialId))
    .limit(1);
  return row ?? null;
}
