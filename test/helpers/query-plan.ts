import { env } from "cloudflare:workers";

/** The lines of SQLite's `EXPLAIN QUERY PLAN` for a statement as it runs (its SQL and bound values). */
export async function planLines({ sql, params }: { sql: string; params: unknown[] }): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
  return results.map((r) => r.detail);
}

/** The plan of a statement as one text, one line per step. */
export const planText = async (statement: { sql: string; params: unknown[] }) => (await planLines(statement)).join("\n");
