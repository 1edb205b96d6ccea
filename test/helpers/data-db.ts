import { env } from "cloudflare:workers";

/**
 * Test reads and writes of environment data, which lives in its environment's database since the sandbox
 * has its own (DB for live, DB_SANDBOX for sandbox; docs/capacity.md "The sandbox in its own database").
 */
export const dataDb = (environment: "live" | "sandbox"): D1Database => (environment === "sandbox" ? env.DB_SANDBOX : env.DB);

interface Bound {
  first<T = Record<string, unknown>>(): Promise<T | null>;
  all<T = Record<string, unknown>>(): Promise<{ results: T[] }>;
  run(): Promise<{ meta: { changes: number } }>;
}

/**
 * A statement run against both data databases, for a test that finds a row by its id (ids are random, so
 * a row is in one of them): `first` is the row from whichever holds it, `all` the rows of both (sandbox's
 * first), `run` changes both. Not for aggregates (`count(*)` gives one row per database): `countInData` sums them.
 */
export const inData = {
  prepare(sql: string) {
    const bound = (values: unknown[]): Bound => {
      const each = () => [env.DB_SANDBOX, env.DB].map((db) => db.prepare(sql).bind(...values));
      return {
        async first<T>() {
          for (const statement of each()) {
            const row = await statement.first<T>();
            if (row !== null) return row;
          }
          return null;
        },
        async all<T>() {
          const [sandbox, live] = await Promise.all(each().map((s) => s.all<T>()));
          return { results: [...sandbox!.results, ...live!.results] };
        },
        async run() {
          const results = await Promise.all(each().map((s) => s.run()));
          return { meta: { changes: results.reduce((sum, r) => sum + r.meta.changes, 0) } };
        },
      };
    };
    return { bind: (...values: unknown[]) => bound(values), ...bound([]) };
  },
};

/** `select count(*) n …` over both data databases. */
export const countInData = async (sql: string, ...binds: unknown[]) => {
  const counts = await Promise.all([env.DB, env.DB_SANDBOX].map((db) => db.prepare(sql).bind(...binds).first<{ n: number }>()));
  return counts.reduce((sum, row) => sum + (row?.n ?? 0), 0);
};
