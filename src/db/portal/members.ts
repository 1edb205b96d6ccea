import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../client";
import { portalMembers } from "../schema/portal";

export async function findMemberByEmail(db: Database, organisationId: string, email: string) {
  const [row] = await db
    .select()
    .from(portalMembers)
    .where(and(eq(portalMembers.organisationId, organisationId), eq(portalMembers.email, email), isNull(portalMembers.removedAt)))
    .limit(1);
  return row ?? null;
}
