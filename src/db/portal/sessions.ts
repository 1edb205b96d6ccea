import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../client";
import { organisations } from "../schema/identity";
import { portalMembers, portalSessions } from "../schema/portal";

export type PortalSessionRow = typeof portalSessions.$inferSelect;

export async function insertSession(db: Database, row: PortalSessionRow) {
  await db.insert(portalSessions).values(row);
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

export async function setSessionEnvironment(db: Database, tokenHash: string, environment: PortalSessionRow["environment"]) {
  await db.update(portalSessions).set({ environment }).where(and(eq(portalSessions.tokenHash, tokenHash), isNull(portalSessions.endedAt)));
}

/** A passkey was proved in this session just now (a step-up): only while the session is live. */
export async function markPasskeyVerified(db: Database, tokenHash: string, nowSeconds: number) {
  await db.update(portalSessions).set({ passkeyVerifiedAt: nowSeconds }).where(and(eq(portalSessions.tokenHash, tokenHash), isNull(portalSessions.endedAt)));
}
