/**
 * Test-only fault injection for the worker's bindings. `faultyEnv(plan)` wraps
 * the real local D1, R2, Queue and Durable Object bindings so that chosen calls
 * (the Nth, counted from 1 per binding) throw instead of reaching storage; every
 * other call goes through to the real binding. The test then hands the wrapped
 * env to the app's own fetch (`callWithFaults`) or to the cron or queue handler.
 *
 * What counts as one call:
 * - D1: one statement execution (`first`, `all`, `run`, `raw`) or one `batch` or `exec`;
 *   preparing and binding a statement is free, as it is in D1 itself.
 * - R2: one bucket operation (`put`, `get`, `head`, `delete`, `list`, multipart start).
 * - Queue: one `send` or `sendBatch`.
 * - Durable Object: one method call on a stub (the RPC that crosses to the object).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { PRODUCTION, throughEdge, type ApiResponse, type CallOptions } from "./api";

export type BindingKind = "d1" | "r2" | "queue" | "durableObject";

/**
 * Which calls fail: a call number, a list of them, "every" call of the binding, or those a predicate
 * picks. A D1 predicate also reads the SQL (a batch's statements joined with "; "); other bindings pass "".
 */
export type FailWhen = number | number[] | "every" | ((call: number, operation: string, query: string) => boolean);
export type FaultPlan = Partial<Record<BindingKind, FailWhen>> & {
  /** What a failing call throws instead of an `InjectedFault`: e.g. the platform's "overloaded" error. */
  error?: (binding: BindingKind, call: number, operation: string) => Error;
};

export class InjectedFault extends Error {
  constructor(readonly binding: BindingKind, readonly call: number, operation: string) {
    super(`injected fault: ${binding} call #${call} (${operation})`);
    this.name = "InjectedFault";
  }
}

/** Counts the calls of one binding and decides which of them fail. */
class Switch {
  calls = 0;
  readonly failed: { call: number; operation: string }[] = [];
  constructor(
    readonly binding: BindingKind,
    private readonly when: FailWhen | undefined,
    private readonly makeError?: FaultPlan["error"],
  ) {}

  /** Called before each operation: counts it and throws if this one is to fail. */
  pass(operation: string, query = "") {
    const call = ++this.calls;
    const when = this.when;
    const fail = when === "every" || when === call || (Array.isArray(when) && when.includes(call)) || (typeof when === "function" && when(call, operation, query));
    if (fail) {
      this.failed.push({ call, operation });
      throw this.makeError?.(this.binding, call, operation) ?? new InjectedFault(this.binding, call, operation);
    }
  }
}

/** A statement that counts its execution; `bind` keeps the wrapper so batches can unwrap it. */
class FaultyStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly gate: Switch,
    readonly query: string,
  ) {}
  bind(...values: unknown[]) {
    return new FaultyStatement(this.inner.bind(...values), this.gate, this.query);
  }
  first(column?: string) {
    this.gate.pass("first", this.query);
    return column === undefined ? this.inner.first() : this.inner.first(column);
  }
  all() {
    this.gate.pass("all", this.query);
    return this.inner.all();
  }
  run() {
    this.gate.pass("run", this.query);
    return this.inner.run();
  }
  raw(options?: { columnNames?: boolean }) {
    this.gate.pass("raw", this.query);
    return this.inner.raw(options as { columnNames: true });
  }
}

const unwrap = (statement: D1PreparedStatement) => (statement instanceof FaultyStatement ? statement.inner : statement) as D1PreparedStatement;

function faultyD1(real: D1Database, gate: Switch): D1Database {
  return {
    prepare: (query: string) => new FaultyStatement(real.prepare(query), gate, query) as unknown as D1PreparedStatement,
    batch: async (statements: D1PreparedStatement[]) => {
      gate.pass("batch", statements.map((s) => (s instanceof FaultyStatement ? s.query : "")).join("; "));
      return real.batch(statements.map(unwrap));
    },
    exec: async (query: string) => {
      gate.pass("exec", query);
      return real.exec(query);
    },
    // A session of the faulty binding: the same faults; no bookmark, since its reads go through `real` outside any session.
    withSession: () => ({ ...(faultyD1(real, gate) as unknown as object), getBookmark: () => null }) as unknown as D1DatabaseSession,
    dump: () => real.dump(),
  } as unknown as D1Database;
}

function faultyR2(real: R2Bucket, gate: Switch): R2Bucket {
  const operation =
    <K extends "put" | "get" | "head" | "delete" | "list" | "createMultipartUpload">(name: K) =>
    (...args: unknown[]) => {
      gate.pass(name);
      return (real[name] as (...a: unknown[]) => unknown).apply(real, args);
    };
  return {
    put: operation("put"),
    get: operation("get"),
    head: operation("head"),
    delete: operation("delete"),
    list: operation("list"),
    createMultipartUpload: operation("createMultipartUpload"),
    resumeMultipartUpload: (key: string, uploadId: string) => real.resumeMultipartUpload(key, uploadId),
  } as unknown as R2Bucket;
}

function faultyQueue(real: Queue, gate: Switch): Queue {
  return {
    send: async (...args: Parameters<Queue["send"]>) => {
      gate.pass("send");
      return real.send(...args);
    },
    sendBatch: async (...args: Parameters<Queue["sendBatch"]>) => {
      gate.pass("sendBatch");
      return real.sendBatch(...args);
    },
  } as Queue;
}

/** Stub properties that are not calls to the object (and `then`, so a stub is never mistaken for a promise). */
const NOT_A_CALL = new Set<string | symbol>(["then", "id", "name", "fetch", "connect"]);

function faultyNamespace<T extends DurableObjectNamespace<any>>(real: T, gate: Switch): T {
  const wrapStub = (stub: object) =>
    new Proxy(stub, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof property === "symbol" || NOT_A_CALL.has(property)) return typeof value === "function" ? value.bind(target) : value;
        return (...args: unknown[]) => {
          try {
            gate.pass(`${property}()`);
          } catch (error) {
            return Promise.reject(error);
          }
          return (target as Record<string, (...a: unknown[]) => unknown>)[property](...args);
        };
      },
    });
  return new Proxy(real, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "get" || property === "getByName") {
        return (...args: unknown[]) => wrapStub((value as (...a: unknown[]) => object).apply(target, args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export interface FaultyEnv {
  env: Cloudflare.Env;
  /** Per binding: how many calls were made and which ones were made to fail. */
  switches: Record<BindingKind, Switch>;
}

/** The test env with the chosen calls of each binding failing; everything else is the real binding. */
export function faultyEnv(plan: FaultPlan = {}, base: Cloudflare.Env = env): FaultyEnv {
  const switches = {
    d1: new Switch("d1", plan.d1, plan.error),
    r2: new Switch("r2", plan.r2, plan.error),
    queue: new Switch("queue", plan.queue, plan.error),
    durableObject: new Switch("durableObject", plan.durableObject, plan.error),
  };
  return {
    switches,
    env: {
      ...base,
      // Both databases under one switch: the Nth D1 call of the write fails, whichever database it reaches (docs/capacity.md).
      DB: faultyD1(base.DB, switches.d1),
      DB_SANDBOX: faultyD1(base.DB_SANDBOX, switches.d1),
      DOCUMENTS: faultyR2(base.DOCUMENTS, switches.r2),
      WEBHOOK_QUEUE: faultyQueue(base.WEBHOOK_QUEUE, switches.queue),
      KEY_AUTHORITY: faultyNamespace(base.KEY_AUTHORITY, switches.durableObject),
    },
  };
}

export interface FaultyCallOptions extends CallOptions {
  /** A multipart or other ready-made body, sent as is. */
  form?: FormData;
}

/** Calls the app's fetch with the given env, as the runtime would, and waits for its waitUntil work. */
export async function callWithEnv(testEnv: Cloudflare.Env, method: string, path: string, options: FaultyCallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers["X-API-Key"] = options.key;
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined = options.form ?? options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  if (options.contentType) headers["Content-Type"] = options.contentType;
  const ctx = createExecutionContext();
  const res = await createApp().fetch(new Request(`${options.host ?? PRODUCTION}${path}`, { method, headers, body, ...throughEdge(headers) }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: tests read `text` */
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
