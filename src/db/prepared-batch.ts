/**
 * A read batch whose SQL is built once per isolate, not on every request. Drizzle builds a query's SQL
 * text (walking its column list, conditions and subqueries) each time a builder is run; for a read
 * that runs on every request with the same shape, only the values change. Here the queries are
 * written with `sql.placeholder(…)` for those values, prepared once, and each call binds the request's
 * values to the same SQL and runs the statements as one D1 batch (one round trip) on the request's own
 * client, so Server-Timing counts it. Rows are mapped by drizzle exactly as `db.batch` maps them.
 *
 * A CPU profile of `GET /partner/v1/leads/{id}` put drizzle's SQL building of the
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
  let built: Q | undefined;
  const queries = () => (built ??= build(builder));
  /** Each statement's SQL and the values bound to it, in batch order. */
  const statements = (values: Record<string, unknown>) => queries().map((q) => ({ sql: q.getQuery().sql, params: fillPlaceholders(q.getQuery().params, values) }));
  const run = async (db: Database, values: Record<string, unknown>): Promise<Rows<Q>> => {
    const client = db.$client;
    const results = await client.batch(statements(values).map(({ sql, params }) => client.prepare(sql).bind(...params)));
    return results.map((result, i) => queries()[i]!.mapResult(result, true)) as Rows<Q>;
  };
  // The statements are readable on their own so a test can hold their query plans (test/leads/read-plan.test.ts).
  return Object.assign(run, { statements });
}
