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

/**
 * The portal's audit entries matching `where`, from both databases: the log is in every database and an
 * entry lives with its action's batch (db/placement.ts), so a sandbox lead's action is in DB_SANDBOX and
 * a member change in DB. Oldest first, in the portal's merged order (at, the sandbox's before DB's, rowid).
 */
export async function auditEntries<T = Record<string, unknown>>(columns: string, where: string, ...binds: unknown[]): Promise<T[]> {
  const read = async (db: D1Database, rank: number) =>
    (await db.prepare(`select ${columns}, at as _at, rowid as _seq, ${rank} as _db from portal_audit_log where ${where}`).bind(...binds).all<Record<string, unknown>>()).results;
  const rows = (await Promise.all([read(env.DB_SANDBOX, 0), read(env.DB, 1)])).flat();
  rows.sort((a, b) => String(a._at).localeCompare(String(b._at)) || Number(a._db) - Number(b._db) || Number(a._seq) - Number(b._seq));
  return rows.map(({ _at, _seq, _db, ...row }) => row as T);
}
