import { and, desc, eq, getTableColumns } from "drizzle-orm";
import type { KeysetPosition } from "../../lib/cursor";
import { writeOrder, writtenBefore } from "../write-order";
import type { Database } from "../client";
import { portalAuditLog } from "../schema/portal";

export type AuditEntryRow = typeof portalAuditLog.$inferSelect;

export async function insertAuditEntry(db: Database, row: AuditEntryRow) {
  await db.insert(portalAuditLog).values(row);
}

/** Newest first, keyset-paged on (at, rowid), the order of writing (db/write-order.ts); always one organisation's. */
export function auditPage(db: Database, organisationId: string, after: KeysetPosition | null, limit: number) {
  return db
    .select({ ...getTableColumns(portalAuditLog), seq: writeOrder(portalAuditLog) })
    .from(portalAuditLog)
    .where(and(eq(portalAuditLog.organisationId, organisationId), after ? writtenBefore(portalAuditLog, portalAuditLog.at, after) : undefined))
    .orderBy(desc(portalAuditLog.at), desc(writeOrder(portalAuditLog)))
    .limit(limit);
}
