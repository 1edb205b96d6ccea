import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Database } from "../client";
import { portalMembers, portalPasskeys } from "../schema/portal";


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
