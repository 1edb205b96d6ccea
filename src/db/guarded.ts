import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import { eventRow, type NewEvent } from "./event-rows";
import { events } from "./schema/events";
import { nowIso } from "../lib/ids";

/**
 * `INSERT INTO t SELECT <values> WHERE <guard>`: an insert that happens only
 * if the guard holds when the batch reaches it. Used for rows that must exist
 * only when an earlier conditional update of the same batch won (the guard
 * checks the token that update wrote), so a losing racer writes nothing.
 * Every column is listed in table order; absent values take the column default.
 */
export function insertWhere<T extends SQLiteTable>(db: Database, table: T, row: T["$inferInsert"], guard: SQL) {
  const columns = Object.entries(getTableColumns(table)) as [string, { default?: unknown; mapToDriverValue(v: unknown): unknown }][];
  const values = columns.map(([key, column]) => {
    let value = (row as Record<string, unknown>)[key];
    if (value === undefined) value = column.default ?? null;
    return value === null ? sql`null` : sql`${column.mapToDriverValue(value)}`;
  });
  return db.insert(table).select(sql`select ${sql.join(values, sql`, `)} where ${guard}`);
}

/** `eventInsert` that happens only if `guard` holds: the outbox row of a change that may lose a race. */
export function eventInsertWhere(db: Database, event: NewEvent, guard: SQL, at = nowIso()) {
  return insertWhere(
    db,
    events,
    eventRow(event, at),
    guard,
  );
}
