/** Single-use portal form tokens (schema/portal.ts `portalFormUses`). */
import { and, eq, isNull, lt } from "drizzle-orm";
import type { Database } from "../client";
import { portalFormUses } from "../schema/portal";

export interface FormUse {
  sessionId: string;
  nonce: string;
  action: string;
}

const thisUse = (use: FormUse) => and(eq(portalFormUses.sessionId, use.sessionId), eq(portalFormUses.nonce, use.nonce), eq(portalFormUses.action, use.action));

/** Claims the use; false when an earlier post of the same form already holds it. */
export async function claimFormUse(db: Database, use: FormUse, at: string): Promise<boolean> {
  const result = await db.insert(portalFormUses).values({ ...use, createdAt: at }).onConflictDoNothing().run();
  return result.meta.changes === 1;
}

/** The first post's outcome; `status` null while it is in flight, null when there is no claim (it was released). */
export async function findFormUse(db: Database, use: FormUse) {
  return (await db.select({ status: portalFormUses.status, location: portalFormUses.location }).from(portalFormUses).where(thisUse(use)).get()) ?? null;
}

export async function recordFormOutcome(db: Database, use: FormUse, status: number, location: string | null) {
  await db.update(portalFormUses).set({ status, location }).where(and(thisUse(use), isNull(portalFormUses.status)));
}

/** A refused post wrote nothing, so the same form may be sent again. */
export async function releaseFormUse(db: Database, use: FormUse) {
  await db.delete(portalFormUses).where(thisUse(use));
}

export async function deleteFormUsesBefore(db: Database, before: string) {
  return (await db.delete(portalFormUses).where(lt(portalFormUses.createdAt, before)).run()).meta.changes;
}
