import { drizzle } from "drizzle-orm/d1";
import type { Environment } from "../domain/identity/keys";
import { CrossDatabaseStatement, sideOfStatement, type Side } from "./placement";

export const database = (d1: D1Database) => drizzle(d1);
export type Database = ReturnType<typeof database>;

/**
 * Where data lives (docs/capacity.md, "The 100× design": the sandbox in its own database). Each
 * environment's data has its own D1 database: `live` in `DB`, `sandbox` in `DB_SANDBOX`, so a sandbox
 * flood cannot fill the live database. The control tables (CONTROL_TABLES) are read from `DB` whatever
 * the environment: a request needs them before it knows its environment.
 */
export type DataEnvironment = Environment;

interface DatabaseBindings {
  DB: D1Database;
  DB_SANDBOX: D1Database;
}

/** The one seam that chooses a data database; the shard map of docs/capacity.md extends it to `{environment, region, shard}`. */
export const databaseFor = (bindings: DatabaseBindings, environment: DataEnvironment): D1Database => (environment === "sandbox" ? bindings.DB_SANDBOX : bindings.DB);

/** What the drizzle D1 driver asks of its client: a D1 binding and a D1 session both have it. */
export interface D1Client {
  prepare(query: string): D1PreparedStatement;
  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]>;
}

/**
 * A client over the control database and one data database: each statement goes to the database its
 * tables are in, so every service keeps taking one `deps.db` and the seam, not the caller, chooses.
 * When both are the same database (live today) it is that database itself, untouched. Otherwise a
 * statement or a batch naming both sides is refused: one D1 batch is one database's transaction. A
 * statement over tables kept in every database (EVERY_DATABASE_TABLES: the audit log) is prepared on
 * both and runs with its batch's database, or on its own in the control database.
 */
export function routedClient(control: D1Client, data: D1Client): D1Client {
  if (control === data) return control;
  const clients: Record<Side, D1Client> = { control, data };
  // Each statement handed out: the side it was prepared for ("either": both) and each side's statement a batch takes.
  const prepared = new WeakMap<object, { side: Side | "either"; statements: Partial<Record<Side, D1PreparedStatement>> }>();
  const tag = (side: Side | "either", statements: Partial<Record<Side, D1PreparedStatement>>): D1PreparedStatement => {
    // Run on its own, an "either" statement is the control database's.
    const own = statements[side === "either" ? "control" : side]!;
    const tagged = new Proxy(own, {
      get(target, property) {
        if (property === "bind")
          return (...values: unknown[]) => tag(side, Object.fromEntries(Object.entries(statements).map(([s, statement]) => [s, statement.bind(...values)])));
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    prepared.set(tagged, { side, statements });
    return tagged;
  };
  return {
    prepare(query) {
      const side = sideOfStatement(query);
      if (side === "mixed") throw new CrossDatabaseStatement(`The statement "${query.slice(0, 120)}"`);
      if (side === "either") return tag(side, { control: control.prepare(query), data: data.prepare(query) });
      return tag(side, { [side]: clients[side].prepare(query) });
    },
    batch(statements) {
      const entries = statements.map((s) => prepared.get(s) ?? { side: "data" as Side, statements: { data: s } });
      const sides = new Set(entries.flatMap((e) => (e.side === "either" ? [] : [e.side])));
      if (sides.size > 1) throw new CrossDatabaseStatement("A batch");
      const [side = entries.length > 0 && entries.every((e) => e.side === "either") ? "control" : "data"] = sides;
      return clients[side].batch(entries.map((e) => e.statements[side]!));
    },
  };
}

/** Each routed client's own databases, for what must name one: a table kept in every database, read or updated in each. */
const sidesOfRouted = new WeakMap<object, Record<Side, Database>>();

/** The drizzle client over `routedClient`: what `deps.db` is for an environment. */
export const routedDatabase = (control: D1Client, data: D1Client): Database => {
  if (control === data) return database(control as unknown as D1Database);
  const routed = database(routedClient(control, data) as unknown as D1Database);
  sidesOfRouted.set(routed, { control: database(control as unknown as D1Database), data: database(data as unknown as D1Database) });
  return routed;
};

/**
 * One side of a client: its control database or its data database (for live, both are the client
 * itself). For statements over tables kept in every database that must reach a given one: the audit
 * entry's follow-up in the database its action's batch wrote it to, the audit views' read of each.
 */
export const sideOf = (db: Database, side: Side): Database => sidesOfRouted.get(db)?.[side] ?? db;

/** A data environment's client from the Worker's bindings (cron, queues, a test): control from `DB`, data from `databaseFor`. */
export const databaseOf = (bindings: DatabaseBindings, environment: DataEnvironment = "live"): Database => routedDatabase(bindings.DB, databaseFor(bindings, environment));
