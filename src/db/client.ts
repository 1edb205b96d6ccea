import { drizzle } from "drizzle-orm/d1";
import type { Environment } from "../domain/identity/keys";
import { CrossDatabaseStatement, sideOfStatement, type Side } from "./placement";

export const database = (d1: D1Database) => drizzle(d1);
export type Database = ReturnType<typeof database>;

/**
 * Where data lives (issue 40 item 3; docs/capacity.md, "The sandbox in its own database"). Each
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
 * statement or a batch naming both sides is refused: one D1 batch is one database's transaction.
 */
export function routedClient(control: D1Client, data: D1Client): D1Client {
  if (control === data) return control;
  const clients: Record<Side, D1Client> = { control, data };
  // Each statement handed out, to the side it was prepared on and the statement that side's batch takes.
  const prepared = new WeakMap<object, { side: Side; statement: D1PreparedStatement }>();
  const tag = (statement: D1PreparedStatement, side: Side): D1PreparedStatement => {
    const tagged = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => tag(target.bind(...values), side);
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    prepared.set(tagged, { side, statement });
    return tagged;
  };
  return {
    prepare(query) {
      const side = sideOfStatement(query);
      if (side === "mixed") throw new CrossDatabaseStatement(`The statement "${query.slice(0, 120)}"`);
      return tag(clients[side].prepare(query), side);
    },
    batch(statements) {
      const entries = statements.map((s) => prepared.get(s) ?? { side: "data" as Side, statement: s });
      const sides = new Set(entries.map((e) => e.side));
      if (sides.size > 1) throw new CrossDatabaseStatement("A batch");
      const [side = "data"] = sides;
      return clients[side].batch(entries.map((e) => e.statement));
    },
  };
}

/** The drizzle client over `routedClient`: what `deps.db` is for an environment. */
export const routedDatabase = (control: D1Client, data: D1Client): Database => database(routedClient(control, data) as unknown as D1Database);

/** A data environment's client from the Worker's bindings (cron, queues, a test): control from `DB`, data from `databaseFor`. */
export const databaseOf = (bindings: DatabaseBindings, environment: DataEnvironment = "live"): Database => routedDatabase(bindings.DB, databaseFor(bindings, environment));
