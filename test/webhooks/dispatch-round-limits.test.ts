/**
 * Issue 21 review leftover (b): one dispatch round claims up to 100 events and writes their deliveries
 * in one D1 batch. D1's limits on one query apply to each statement of a batch
 * (https://developers.cloudflare.com/d1/platform/limits/): at most 100 bound parameters and 100 KB of
 * SQL per statement; the batch is one call. A round at the edge (100 events of one account, each to
 * the 16 endpoints an account may register) is run here and every statement of its batch is checked
 * against those limits: a claim binds 2 values, a delivery insert one per column it sets (13), whatever the
 * round's size, since the round grows by statements, never by the values of one statement.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { dispatchPendingEvents, type DeliveryMessage } from "../../src/services/webhooks/dispatch";
import { ENDPOINTS_PER_ACCOUNT } from "../../src/services/webhooks/endpoints";
import { testDeps } from "../helpers/deps";
import { partnerWithKeys } from "../helpers/seed";
import { receiverBucket, register, settleOutbox, writeEvent } from "./support/webhooks";

beforeEach(settleOutbox);

const D1_BOUND_PARAMETERS_PER_QUERY = 100;
const D1_SQL_BYTES_PER_QUERY = 100_000;
const EVENTS_PER_ROUND = 100;

/** env.DB seen through a proxy that notes, for each batch, each statement's SQL and how many values it binds. */
function measuredDatabase() {
  const batches: { sql: string; params: number }[][] = [];
  const shapes = new WeakMap<object, { sql: string; params: number }>();
  const tracked = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind")
          return (...values: unknown[]) => {
            const bound = tracked(target.bind(...values), sql);
            shapes.set(bound, { sql, params: values.length });
            return bound;
          };
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    shapes.set(proxy, { sql, params: 0 });
    return proxy;
  };
  const DB = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => tracked(target.prepare(sql), sql);
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          batches.push(statements.map((s) => shapes.get(s) ?? { sql: "?", params: -1 }));
          return target.batch(statements);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { DB, batches };
}

describe("a webhook dispatch round at the edge", () => {
  it("100 events to 16 endpoints each: one batch of 1,700 statements, each within D1's per-query limits, and every delivery written", { timeout: 120_000 }, async () => {
    const { organisation, live } = await partnerWithKeys();
    const receiver = receiverBucket();
    const endpointIds: string[] = [];
    for (let i = 0; i < ENDPOINTS_PER_ACCOUNT; i++) endpointIds.push((await register("partner", live.key, { url: receiver.url(`ok-${i}`), payload: "reference" })).id);
    await settleOutbox();
    for (let i = 0; i < EVENTS_PER_ROUND; i++) {
      await writeEvent({ organisationId: organisation.id, environment: "live", api: "partner", event: "lead.submitted", subjectType: "lead", subjectId: `lead-edge-${i}` });
    }

    const { DB, batches } = measuredDatabase();
    const queued: string[] = [];
    const queue = {
      async sendBatch(messages: { body: DeliveryMessage }[]) {
        queued.push(...messages.map((m) => m.body.delivery_id));
      },
    } as unknown as Queue;
    const done = await dispatchPendingEvents(testDeps({ env: { DB, WEBHOOK_QUEUE: queue } }));

    // The one round's batch: a claim and 16 delivery inserts per event.
    const round = batches.find((b) => b.some((s) => /insert into "webhook_deliveries"/i.test(s.sql)));
    expect(round).toBeDefined();
    expect(round!.length).toBeGreaterThanOrEqual(EVENTS_PER_ROUND * (1 + ENDPOINTS_PER_ACCOUNT));
    const widest = Math.max(...round!.map((s) => s.params));
    const longest = Math.max(...round!.map((s) => new TextEncoder().encode(s.sql).length));
    expect(round!.every((s) => s.params >= 0)).toBe(true);
    expect(widest).toBeLessThanOrEqual(D1_BOUND_PARAMETERS_PER_QUERY);
    expect(longest).toBeLessThanOrEqual(D1_SQL_BYTES_PER_QUERY);

    // Everything the round claimed was written and handed on.
    expect(done.events).toBeGreaterThanOrEqual(EVENTS_PER_ROUND);
    const written = await env.DB.prepare(`select count(*) as n from webhook_deliveries where organisation_id = ? and endpoint_id in (${endpointIds.map(() => "?").join(",")})`)
      .bind(organisation.id, ...endpointIds)
      .first<{ n: number }>();
    expect(written!.n).toBe(EVENTS_PER_ROUND * ENDPOINTS_PER_ACCOUNT);
    const pending = await env.DB.prepare("select count(*) as n from events where organisation_id = ? and dispatched_at is null").bind(organisation.id).first<{ n: number }>();
    expect(pending!.n).toBe(0);
    expect(queued.length).toBeGreaterThanOrEqual(EVENTS_PER_ROUND * ENDPOINTS_PER_ACCOUNT);
    console.info(JSON.stringify({ round_statements: round!.length, widest_statement_params: widest, longest_statement_sql_bytes: longest }));
  });
});
