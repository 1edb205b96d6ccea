import { and, desc, eq, lt, or } from "drizzle-orm";
import type { Database } from "../client";
import { portalAuditLog } from "../schema/portal";

export type AuditEntryRow = typeof portalAuditLog.$inferSelect;

export async function insertAuditEntry(db: Database, row: AuditEntryRow) {
  await db.insert(portalAuditLog).values(row);
}

/** Newest first, keyset-paged on (at, id); always one organisation's. */
export async function auditPage(db: Database, organisationId: string, after: { at: string; id: string } | null, limit: number) {
  return db
    .select()
    .from(portalAuditLog)
    .where(
      and(
        eq(portalAuditLog.organisationId, organisationId),
        after ? or(lt(portalAuditLog.at, after.at), and(eq(portalAuditLog.at, after.at), lt(portalAuditLog.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(portalAuditLog.at), desc(portalAuditLog.id))
    .limit(limit);
}
