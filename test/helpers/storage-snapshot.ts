/**
 * Every row of every D1 table, read through the real binding, so a test can
 * tell exactly what a write left behind: rows added and removed per table
 * (an updated row is one removed and one added).
 */
import { env } from "cloudflare:workers";

export type Snapshot = Map<string, string[]>;

/** Tables of the platform, not of the service. */
const SKIPPED = /^(sqlite_|_cf_|d1_migrations$)/;

/**
 * Both databases (DB, and the sandbox's own DB_SANDBOX: docs/capacity.md), a sandbox table's rows named
 * `sandbox:<table>`. Each database's tables are read in one batch (one round trip, one consistent
 * moment), the two databases at once: a fault sweep takes a snapshot around every D1 call it fails.
 */
export async function snapshot(): Promise<Snapshot> {
  const read = async (prefix: string, db: D1Database) => {
    const { results: tables } = await db.prepare("select name from sqlite_master where type = 'table' order by name").all<{ name: string }>();
    const names = tables.map((t) => t.name).filter((name) => !SKIPPED.test(name));
    const rows = await db.batch(names.map((name) => db.prepare(`select * from "${name}"`)));
    return names.map((name, i) => [`${prefix}${name}`, rows[i]!.results.map((row) => JSON.stringify(row))] as const);
  };
  const [live, sandbox] = await Promise.all([read("", env.DB), read("sandbox:", env.DB_SANDBOX)]);
  return new Map([...live, ...sandbox]);
}

export interface TableChange {
  added: string[];
  removed: string[];
}

/** What changed between two snapshots, per table; tables without change are left out. */
export function changes(before: Snapshot, after: Snapshot): Map<string, TableChange> {
  const out = new Map<string, TableChange>();
  for (const [table, rows] of after) {
    const remaining = new Map<string, number>();
    for (const row of before.get(table) ?? []) remaining.set(row, (remaining.get(row) ?? 0) + 1);
    const added: string[] = [];
    for (const row of rows) {
      const left = remaining.get(row) ?? 0;
      if (left > 0) remaining.set(row, left - 1);
      else added.push(row);
    }
    const removed = [...remaining].flatMap(([row, n]) => Array<string>(n).fill(row));
    if (added.length || removed.length) out.set(table, { added, removed });
  }
  return out;
}

/** The shape of a change, comparable across runs with different ids and times: table → "+added -removed". */
export function changeShape(change: Map<string, TableChange>): Record<string, string> {
  return Object.fromEntries([...change].sort(([a], [b]) => a.localeCompare(b)).map(([table, c]) => [table, `+${c.added.length} -${c.removed.length}`]));
}
