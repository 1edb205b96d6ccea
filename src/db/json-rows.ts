/**
 * A table's rows as one JSON text inside another statement, and back to the rows drizzle would have
 * given. The lead read (db/leads/with-relations.ts) folds its lists into the lead's own statement as
 * correlated subqueries `(SELECT json_group_array(json_array(…) ORDER BY …) FROM t WHERE …)`, so the
 * read is one statement and one result set (issue 25 item 3, docs/capacity.md "The lead read, profiled").
 *
 * Each row travels as a JSON array of its columns in drizzle's column order, and is mapped back with
 * each column's own `mapFromDriverValue` (null stays null, as in drizzle's row mapping), so a row read
 * this way is the row `db.select().from(t)` gives: JSON columns are stored text (a string inside the
 * array, parsed by the column as usual), booleans stored 0/1 (mapped by the column), integers and
 * text exact in JSON.
 *
 * Reals are the one type SQLite's JSON does not carry exactly: it writes them with 15 significant
 * digits (0.1 + 0.2 comes back 0.3). So a REAL column travels as text, `printf('%!.17g', v)`: 17
 * digits name every double, and SQLite's printf gives them correctly in 1e-82 ≤ |v| < 1e119 (measured
 * over random doubles; outside that its last digits drift). A value outside [1e-60, 1e100) is first
 * multiplied into that band by a power of two (exact: only the exponent changes; the factor is a bound
 * parameter, never a decimal literal SQLite would have to round), written `digits p k`, and multiplied
 * back by 2^k here. test/leads/read-one-statement.test.ts holds all of it against drizzle's own reads.
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * The bands outside the exact one, largest first, each as its lower bound of |v| and the power of two
 * that moves it into [1e-60, 1e100): [1e200, max] × 2^-850, [1e100, 1e200) × 2^-500, [1e-160, 1e-60)
 * × 2^500, [1e-260, 1e-160) × 2^830, and below (subnormals too) × 2^1000.
 */
const REAL_BANDS: readonly { from: number; exponent: number }[] = [
  { from: 1e200, exponent: -850 },
  { from: 1e100, exponent: -500 },
  { from: 1e-160, exponent: 500 },
  { from: 1e-260, exponent: 830 },
  { from: 0, exponent: 1000 },
];

/** A REAL value as exact text: `digits`, or `digits p k` for digits × 2^k (see above); null stays null. */
function exactReal(value: SQLiteColumn | SQL): SQL {
  const bands = REAL_BANDS.map(({ from, exponent }) => {
    // Multiplying by 2^k for k < 0 and dividing by 2^-k for k > 0: the bound factor is a fraction either
    // way, so it is bound as a REAL (a whole number as large as 2^500 might not be).
    const scaled = exponent < 0 ? sql`${value} * ${2 ** exponent}` : sql`${value} / ${2 ** -exponent}`;
    const text = sql`printf('%!.17g', ${scaled}) || ${sql.raw(`'p${-exponent}'`)}`;
    return from === 0 ? sql`else ${text}` : sql`when abs(${value}) >= ${sql.raw(String(from))} then ${text}`;
  });
  // Null first: printf('%!.17g', NULL) is '0.0', so a null must not reach the ELSE.
  return sql`(case when ${value} is null then null when ${value} = 0 or (abs(${value}) >= 1e-60 and abs(${value}) < 1e100) then printf('%!.17g', ${value}) ${sql.join(bands, sql` `)} end)`;
}

/** The inverse of `exactReal` on the JavaScript side. */
function fromExactReal(text: string): number {
  const at = text.indexOf("p");
  return at < 0 ? Number(text) : Number(text.slice(0, at)) * 2 ** Number(text.slice(at + 1));
}

/** The REAL encoding on its own, both ways (test/leads/read-one-statement.test.ts drives it over random doubles). */
export const exactRealText = { sql: exactReal, read: fromExactReal };

type Column = SQLiteColumn & { mapFromDriverValue(value: unknown): unknown };
type Row<F extends Record<string, SQLiteColumn>> = { [K in keyof F]: F[K]["_"]["notNull"] extends true ? F[K]["_"]["data"] : F[K]["_"]["data"] | null };

/** Every column of a table, in drizzle's order: what `db.select().from(t)` selects. */
export const allColumns = <T extends SQLiteTable>(table: T) => getTableColumns(table);

/**
 * The rows of the selected columns (of a table, or of an alias of it) as one JSON text, in `orderBy`'s
 * order: the select list of a correlated subquery, `db.select({ rows: jsonRows(fields, […]).rows }).from(t).where(…)`;
 * `read` maps the text back to what `db.select(fields).from(t)` gives for those rows.
 */
export function jsonRows<F extends Record<string, SQLiteColumn>>(fields: F, orderBy: readonly (SQLiteColumn | SQL)[]) {
  const columns = Object.entries(fields) as [string, Column][];
  const cells = columns.map(([, column]) => (column.columnType === "SQLiteReal" ? exactRealText.sql(column) : sql`${column}`));
  const order = orderBy.length ? sql` order by ${sql.join([...orderBy], sql`, `)}` : sql``;
  const rows = sql<string>`json_group_array(json_array(${sql.join(cells, sql`, `)})${order})`;
  const read = (text: string): Row<F>[] =>
    (JSON.parse(text) as unknown[][]).map((cells) => {
      const row: Record<string, unknown> = {};
      columns.forEach(([key, column], i) => {
        const cell = cells[i] ?? null;
        if (cell === null) row[key] = null;
        else row[key] = column.mapFromDriverValue(column.columnType === "SQLiteReal" ? exactRealText.read(cell as string) : cell);
      });
      return row as Row<F>;
    });
  return { rows, read };
}
