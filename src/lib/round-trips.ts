/**
 * Counts what a request spends outside the isolate: D1 round trips and
 * Durable Object calls, with their durations. The bindings are wrapped per
 * request (see middleware/server-timing.ts), so every module that reaches
 * D1 or a Durable Object through `c.env` is counted without knowing it.
 *
 * A D1 round trip is one `first`/`all`/`run`/`raw` of a statement, one
 * `batch` (however many statements it holds) or one `exec`.
 */

export interface RoundTripCounter {
  d1: { count: number; ms: number };
  durableObjects: { count: number; ms: number };
  /**
   * The tables the request's statements insert into (read from each prepared statement's SQL), so
   * work after the response can be skipped when the request wrote nothing it concerns: the webhook
   * dispatch runs only after a request that put an event in the outbox (middleware/dispatch-after-write.ts).
   */
  insertedInto: Set<string>;
  /**
   * Whether any statement of the request changes a row (insert, update, delete, replace): a request that
   * wrote hands its D1 session's bookmark on (middleware/database.ts), so its caller's next read sees the write.
   */
  wrote: boolean;
}

export const newRoundTripCounter = (): RoundTripCounter => ({ d1: { count: 0, ms: 0 }, durableObjects: { count: 0, ms: 0 }, insertedInto: new Set(), wrote: false });

/** `insert into "events" …`, `insert or ignore into events …`, also inside a `with` clause. */
const INSERT_INTO = /\b(?:insert|replace)\s+(?:or\s+\w+\s+)?into\s+[`"[]?(\w+)/gi;

/** A statement that changes rows; values are bound, so these words appear in SQL text only as SQL. */
const WRITES = /\b(?:(?:insert|replace)\s+(?:or\s+\w+\s+)?into|update\s+(?:or\s+\w+\s+)?[`"[]?\w+[`"\]]?\s+set|delete\s+from)\b/i;

function noteInserts(sql: string, counter: RoundTripCounter) {
  for (const match of sql.matchAll(INSERT_INTO)) counter.insertedInto.add(match[1]!.toLowerCase());
  if (WRITES.test(sql)) counter.wrote = true;
}

const STATEMENT_CALLS = new Set(["first", "all", "run", "raw"]);

async function timed<T>(tally: { count: number; ms: number }, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  tally.count++;
  try {
    return await call();
  } finally {
    tally.ms += performance.now() - started;
  }
}

/** Wrapped statements map back to the binding's own, which `batch` insists on. */
const originals = new WeakMap<object, D1PreparedStatement>();
const unwrap = (statement: D1PreparedStatement) => originals.get(statement) ?? statement;

function countStatement(statement: D1PreparedStatement, counter: RoundTripCounter): D1PreparedStatement {
  const wrapped = new Proxy(statement, {
    get(target, property) {
      if (property === "bind") return (...values: unknown[]) => countStatement(target.bind(...values), counter);
      if (typeof property === "string" && STATEMENT_CALLS.has(property)) {
        return (...args: unknown[]) => timed(counter.d1, () => (target as any)[property](...args));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  originals.set(wrapped, statement);
  return wrapped;
}

/** Counted bindings → the bindings they wrap. */
const uncountedBindings = new WeakMap<object, object>();

/** The binding without its counter: for work that outlives the response (`waitUntil`), which its Server-Timing does not cover. */
export const uncounted = <T extends object>(binding: T): T => (uncountedBindings.get(binding) as T | undefined) ?? binding;

/**
 * Counts a D1 binding and the sessions opened from it (`withSession`, read replication): a request
 * reads through its session (middleware/database.ts), so the session must count as the binding does.
 */
export function countD1(d1: D1Database, counter: RoundTripCounter): D1Database {
  const counted = countQueries(d1, counter);
  uncountedBindings.set(counted, d1);
  return counted;
}

function countQueries<T extends D1Database | D1DatabaseSession>(d1: T, counter: RoundTripCounter): T {
  return new Proxy(d1, {
    get(target, property) {
      if (property === "withSession") return (start?: string) => countQueries((target as D1Database).withSession(start), counter);
      if (property === "prepare")
        return (sql: string) => {
          noteInserts(sql, counter);
          return countStatement(target.prepare(sql), counter);
        };
      if (property === "batch") return (statements: D1PreparedStatement[]) => timed(counter.d1, () => target.batch(statements.map(unwrap)));
      if (property === "exec")
        return (sql: string) => {
          noteInserts(sql, counter);
          return timed(counter.d1, () => (target as D1Database).exec(sql));
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Properties of a stub that are not remote calls. */
const LOCAL_STUB_PROPERTIES = new Set(["then", "id", "name", "dup", "constructor", "toString", "toJSON"]);

function countStub<T extends object>(stub: T, counter: RoundTripCounter): T {
  return new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof property !== "string" || LOCAL_STUB_PROPERTIES.has(property) || typeof value !== "function") return value;
      // Called as a method of the stub: an RPC method's own `apply` would be taken for a remote method.
      return (...args: unknown[]) => timed(counter.durableObjects, () => (target as any)[property](...args));
    },
  });
}

export function countDurableObjects<N extends DurableObjectNamespace<any>>(namespace: N, counter: RoundTripCounter): N {
  const counted = new Proxy(namespace, {
    get(target, property) {
      if (property === "get") return (...args: Parameters<N["get"]>) => countStub((target.get as any)(...args), counter);
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  uncountedBindings.set(counted, namespace);
  return counted;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `d1;desc="1 round trip";dur=0.8, do;desc="1 call";dur=0.4, app;dur=2.1` */
export function serverTimingHeader(counter: RoundTripCounter, totalMs: number) {
  const ms = (value: number) => value.toFixed(1);
  return [
    `d1;desc="${plural(counter.d1.count, "round trip", "round trips")}";dur=${ms(counter.d1.ms)}`,
    `do;desc="${plural(counter.durableObjects.count, "call", "calls")}";dur=${ms(counter.durableObjects.ms)}`,
    `app;dur=${ms(totalMs)}`,
  ].join(", ");
}
