/**
 * A read batch whose SQL is built once per isolate, not on every request. Drizzle builds a query's SQL
 * text (walking its column list, conditions and subqueries) each time a builder is run; for a read
 * that runs on every request with the same shape, only the values change. Here the queries are
 * written with `sql.placeholder(…)` for those values, prepared once, and each call binds the request's
 * values to the same SQL and runs the statements as one D1 batch (one round trip) on the request's own
 * client, so Server-Timing counts it. Rows are mapped by drizzle exactly as `db.batch` maps them.
 *
 * Issue 25 item 3: a CPU profile of `GET /partner/v1/leads/{id}` put drizzle's SQL building of the
 * read's seven statements at about a fifth of the request's own JavaScript (docs/capacity.md,
 * "The lead read").
 */
import { fillPlaceholders } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Database } from "./client";

/** What `.prepare()` of a select gives: its built SQL and drizzle's own row mapping. */
interface PreparedRead {
  getQuery(): { sql: string; params: unknown[] };
  mapResult(response: unknown, isFromBatch?: boolean): unknown;
  all(placeholderValues?: Record<string, unknown>): Promise<unknown>;
}

type Rows<Q extends readonly PreparedRead[]> = { -readonly [K in keyof Q]: Awaited<ReturnType<Q[K]["all"]>> };

/**
 * The queries are prepared against a client that never runs a statement (`.prepare()` asks the client
 * for a statement object it keeps but this module never uses): nothing of any request is held.
 */
const builder = drizzle({ prepare: () => ({}) } as unknown as D1Database);

export function preparedBatch<Q extends readonly PreparedRead[]>(build: (db: Database) => Q) {
  let built: { queries: Q; sql: string[] } | undefined;
  return async (db: Database, values: Record<string, unknown>): Promise<Rows<Q>> => {
    if (!built) {
      const queries = build(builder);
      built = { queries, sql: queries.map((q) => q.getQuery().sql) };
    }
    const { queries, sql } = built;
    const client = db.$client;
    const statements = queries.map((q, i) => client.prepare(sql[i]!).bind(...fillPlaceholders(q.getQuery().params, values)));
    const results = await client.batch(statements);
    return results.map((result, i) => queries[i]!.mapResult(result, true)) as Rows<Q>;
  };
}
