import { and, desc, eq, getTableColumns, lt, lte, sql, type SQL } from "drizzle-orm";
import { insertWhere } from "../guarded";
import type { Statement } from "../batch";
import type { MergedPosition } from "../../lib/cursor";
import { writeOrder, writtenBefore } from "../write-order";
import { sideOf, type Database } from "../client";
import { sideOfStatement, type Side } from "../placement";
import { portalAuditLog } from "../schema/portal";

export type AuditEntryRow = typeof portalAuditLog.$inferSelect;

export async function insertAuditEntry(db: Database, row: AuditEntryRow) {
  await db.insert(portalAuditLog).values(row);
}

/** An entry written only if `guard` holds when the batch reaches it: the action of an API key, in the action's own batch. */
export const auditEntryWhere = (db: Database, row: AuditEntryRow, guard: SQL) => insertWhere(db, portalAuditLog, row, guard);

/**
 * Newest first, keyset-paged on (at, rowid), the order of writing (db/write-order.ts); always one
 * organisation's. The log is in every database (db/placement.ts) and the views merge them in the order
 * (at, database rank, rowid): `rank` is this database's, and a position of another database's row
 * continues here at its time, including it when this database comes after that one at the same time.
 */
export function auditPage(db: Database, organisationId: string, after: MergedPosition | null, limit: number, rank = 0) {
  return db
    .select({ ...getTableColumns(portalAuditLog), seq: writeOrder(portalAuditLog) })
    .from(portalAuditLog)
    .where(and(eq(portalAuditLog.organisationId, organisationId), after ? afterPosition(after, rank) : undefined))
    .orderBy(desc(portalAuditLog.at), desc(writeOrder(portalAuditLog)))
    .limit(limit);
}

function afterPosition(after: MergedPosition, rank: number): SQL {
  if (rank === after.database) return writtenBefore(portalAuditLog, portalAuditLog.at, after);
  return rank < after.database ? lte(portalAuditLog.at, after.createdAt) : lt(portalAuditLog.at, after.createdAt);
}

/** The SQL of a batch item: `toSQL` on query builders, `getQuery` on raw statements. */
function sqlOf(item: Statement): string | null {
  const query = item as unknown as { toSQL?: () => { sql: string }; getQuery?: () => { sql: string } };
  return (query.toSQL ?? query.getQuery)?.call(item).sql ?? null;
}

/** A batch that only reads writes nothing, so it carries no audit entry; an item we cannot read counts as a write. */
const batchWrites = (statements: readonly Statement[]) => statements.some((s) => !/^\s*select\b/i.test(sqlOf(s) ?? ""));

/**
 * The request's database with one audit entry riding in the first batch that writes: the action, its
 * events and its audit entry are one D1 transaction, so neither is left without the other (a fault in
 * the audit insert leaves no action). The entry goes right after the batch's first statement and only
 * when that statement changed a row (`changes()`): a write batch opens with its guard or its main
 * write (db/batch.ts `[guard, ...rest]`), so a guard that lost a race writes no entry for an action
 * that did not happen (and the service's retry, its next batch, carries it). `carried()` says whether a batch wrote it; an action that wrote no batch has its
 * entry written on its own by the caller.
 *
 * The audit log is in every database (db/placement.ts), so the entry lands in the database of the batch
 * that carried it: the control database for a member, key or invitation change, a sandbox action's data
 * database for its lead or deal. `home()` is that database, where a follow-up (`setAuditTarget`) finds it.
 */
export function auditingDatabase(db: Database, row: AuditEntryRow): { db: Database; carried: () => boolean; home: () => Database } {
  let carried = false;
  let side: Side = "control";
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "batch") return Reflect.get(target, property, receiver);
      return async (statements: Statement[]) => {
        if (carried || !batchWrites(statements)) return target.batch(statements as unknown as Parameters<Database["batch"]>[0]);
        const [first, ...rest] = statements;
        const entry = insertWhere(target, portalAuditLog, row, sql`changes() > 0`);
        const results = (await target.batch([first!, entry, ...rest] as unknown as Parameters<Database["batch"]>[0])) as unknown as unknown[];
        // A guard that lost wrote no entry: the service's retry (a fresh batch) carries it instead.
        carried = (results[1] as D1Result).meta.changes > 0;
        if (carried) side = batchSide(statements);
        return [results[0], ...results.slice(2)];
      };
    },
  });
  return { db: proxy, carried: () => carried, home: () => sideOf(db, side) };
}

/** The database a batch ran in, as the routed client chose it (db/client.ts): the side its statements name. */
function batchSide(statements: readonly Statement[]): Side {
  for (const statement of statements) {
    const text = sqlOf(statement);
    const side = text === null ? null : sideOfStatement(text);
    if (side === "control" || side === "data") return side;
  }
  return "control";
}

/** The id an action made, set on its entry once known (the entry itself was written in the action's batch). */
export async function setAuditTarget(db: Database, id: string, target: string | null) {
  await db.update(portalAuditLog).set({ target }).where(eq(portalAuditLog.id, id));
}
