/**
 * The order of writing, for every list: SQLite's rowid grows with each row written to a table (these
 * tables have text primary keys, so the rowid is SQLite's own sequence, never reused while a larger one
 * exists). Lists order by (timestamp, rowid) and keyset cursors carry both, so rows written in the same
 * millisecond come out in the order they were written, on one page and across pages. Every index is
 * ordered by its columns and then by rowid, so an index on (scope…, timestamp) serves this order
 * without a sort (docs/architecture.md, "List order").
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { KeysetPosition } from "../lib/cursor";

/** The table's rowid, qualified (safe beside correlated subqueries). */
export const writeOrder = (table: SQLiteTable) => sql<number>`${table}.rowid`;

/** Rows after `position` in a newest-first list: (timestamp, rowid) below the position's, one index range. */
export const writtenBefore = (table: SQLiteTable, timestamp: SQLiteColumn, position: KeysetPosition): SQL =>
  sql`(${timestamp}, ${table}.rowid) < (${position.createdAt}, ${position.seq})`;
