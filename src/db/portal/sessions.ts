import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../client";
import { organisations } from "../schema/identity";
import { portalMembers, portalSessions } from "../schema/portal";

export type PortalSessionRow = typeof portalSessions.$inferSelect;

/** A new session, in the environment its member last switched to (read in the insert itself: no extra round trip). */
export async function insertSession(db: Database, row: Omit<PortalSessionRow, "environment">) {
  const lastEnvironment = sql`coalesce((select ${portalMembers.lastEnvironment} from ${portalMembers} where ${portalMembers.id} = ${row.memberId} and ${portalMembers.organisationId} = ${row.organisationId}), 'sandbox')`;
  await db.insert(portalSessions).values({ ...row, environment: lastEnvironment });
}

/** The session, its member and organisation in one read; an ended session or a removed member finds nothing. */
export async function findLiveSession(db: Database, tokenHash: string) {
  const [row] = await db
    .select({ session: portalSessions, member: portalMembers, organisation: organisations })
    .from(portalSessions)
    .innerJoin(portalMembers, and(eq(portalMembers.id, portalSessions.memberId), eq(portalMembers.organisationId, portalSessions.organisationId)))
    .innerJoin(organisations, eq(organisations.id, portalSessions.organisationId))
    .where(and(eq(portalSessions.tokenHash, tokenHash), isNull(portalSessions.endedAt), isNull(portalMembers.removedAt)))
    .limit(1);
  return row ?? null;
}

export async function touchSession(db: Database, tokenHash: string, nowSeconds: number) {
  await db.update(portalSessions).set({ lastSeenAt: nowSeconds }).where(eq(portalSessions.tokenHash, tokenHash));
}

export async function endSession(db: Database, tokenHash: string, at: string) {
  await db.update(portalSessions).set({ endedAt: at }).where(and(eq(portalSessions.tokenHash, tokenHash), isNull(portalSessions.endedAt)));
}

/** The session's environment and its member's last one, in one batch: the next sign-in opens where this one left off. */
export async function setSessionEnvironment(db: Database, session: { tokenHash: string; memberId: string; organisationId: string }, environment: PortalSessionRow["environment"]) {
  await db.batch([
    db.update(portalSessions).set({ environment }).where(and(eq(portalSessions.tokenHash, session.tokenHash), isNull(portalSessions.endedAt))),
    db.update(portalMembers).set({ lastEnvironment: environment }).where(and(eq(portalMembers.id, session.memberId), eq(portalMembers.organisationId, session.organisationId))),
  ]);
}

/** A passkey was proved in this session just now (a step-up): only while the session is live. */
export async function markPasskeyVerified(db: Database, tokenHash: string, nowSeconds: number) {
  await db.update(portalSessions).set({ passkeyVerifiedAt: nowSeconds }).where(and(eq(portalSessions.tokenHash, tokenHash), isNull(portalSessions.endedAt)));
}
