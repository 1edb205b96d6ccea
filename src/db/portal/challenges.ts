import { eq, lt } from "drizzle-orm";
import type { Database } from "../client";
import { portalChallenges } from "../schema/portal";

export type PortalChallengeRow = typeof portalChallenges.$inferSelect;

export async function insertChallenge(db: Database, row: PortalChallengeRow) {
  await db.insert(portalChallenges).values(row);
}

/** Deletes the challenge and answers it: whoever deletes it first holds it, so a challenge is answered once. */
export async function takeChallenge(db: Database, id: string): Promise<PortalChallengeRow | null> {
  const [row] = await db.delete(portalChallenges).where(eq(portalChallenges.id, id)).returning();
  return row ?? null;
}

/** Challenges nobody answered: the cron removes them once they can no longer be answered. */
export async function deleteExpiredChallenges(db: Database, nowSeconds: number) {
  await db.delete(portalChallenges).where(lt(portalChallenges.expiresAt, nowSeconds));
}
