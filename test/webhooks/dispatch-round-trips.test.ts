import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { dispatchPendingEvents, dispatchSoon } from "../../src/services/webhooks/dispatch";
import { testDeps } from "../helpers/deps";
import { panelOf } from "../helpers/panel";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { receiverBucket, register, settleOutbox, writeEvent } from "./support/webhooks";

// Issue 25: the submit row was the bench's slowest by far (8 req/s at c=10, p50 1.5 s) while its own
// statements each seek an index. The work was after the answer: every write that put an event in the
// outbox started its own dispatch in `waitUntil`, and each dispatch read the same pending events and
// claimed them one D1 batch per event, so c concurrent submits did the outbox's work about c times over
// on the one database every request waits for. These count round trips, not time.

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

const OUTBOX_READ = (sql: string) => /from "events"/i.test(sql) && /"dispatched_at" is null/i.test(sql);

/** env.DB seen through a proxy that notes each outbox read and each batch, and can hold outbox reads until released. */
function watchedDatabase() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const seen = { outboxReads: 0, batches: 0 };
  const holdStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => holdStatement(target.bind(...values));
        if (property === "all" || property === "raw" || property === "first" || property === "run")
          return async (...args: unknown[]) => {
            seen.outboxReads++;
            await gate;
            return (target as any)[property](...args);
          };
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const DB = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => (OUTBOX_READ(sql) ? holdStatement(target.prepare(sql)) : target.prepare(sql));
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          seen.batches++;
          return target.batch(statements);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { DB, seen, release };
}

describe("the webhook dispatch's D1 work", () => {
  it("runs one dispatch at a time for concurrent writes: ten submits read the outbox twice, not ten times, and every event is dispatched", async () => {
    await panelOf(); // an empty panel: each submit writes lead.submitted and lead.out_of_scope
    const { organisation, live } = await partnerWithKeys();
    await register("partner", live.key, { url: receiverBucket().url() });
    const leads = await Promise.all(Array.from({ length: 10 }, () => createLead(live.key)));
    const { DB, seen, release } = watchedDatabase();
    // The outbox reads are held until every submit has answered, so all ten dispatches are asked for while the first is in flight.
    const sent = await Promise.all(
      leads.map(async (lead) => {
        const ctx = createExecutionContext();
        const res = await createApp().request(`http://api.test/partner/v1/leads/${lead.id}/submit`, { method: "POST", headers: { "X-API-Key": live.key } }, { ...env, DB, DISPATCH_AFTER_WRITE: "true" }, ctx);
        return { res, ctx };
      }),
    );
    expect(sent.map((s) => s.res.status)).toEqual(Array(10).fill(200));
    release();
    await Promise.all(sent.map((s) => waitOnExecutionContext(s.ctx)));

    // The run in flight, then one more pass for the writes that asked meanwhile.
    expect(seen.outboxReads).toBeLessThanOrEqual(2);
    const pending = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE organisation_id = ? AND dispatched_at IS NULL").bind(organisation.id).first<{ n: number }>();
    expect(pending!.n).toBe(0);
    const deliveries = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE organisation_id = ?").bind(organisation.id).first<{ n: number }>();
    expect(deliveries!.n).toBe(20);
  });

  it("claims a round's events and writes their deliveries in one batch, not one per event", async () => {
    const { organisation, live } = await partnerWithKeys();
    // Reference payloads: a `full` one reads its subject as the GET does (one read per event and mode), which this does not count.
    await register("partner", live.key, { url: receiverBucket().url(), payload: "reference" });
    for (let i = 0; i < 12; i++) {
      await writeEvent({ organisationId: organisation.id, environment: "live", api: "partner", event: "lead.submitted", subjectType: "lead", subjectId: `lead_rt_${i}`, detail: {} });
    }
    const { DB, seen, release } = watchedDatabase();
    release();
    const sent: string[] = [];
    const result = await dispatchPendingEvents(testDeps({ env: { DB } }), async (ids) => void sent.push(...ids));
    expect(result).toEqual({ events: 12, deliveries: 12 });
    expect(sent).toHaveLength(12);
    // One round: one outbox read, one batch (the claims and the delivery rows together).
    expect(seen.outboxReads).toBe(1);
    expect(seen.batches).toBe(1);
  });

  it("does not hold the next write's dispatch behind a delivery still in flight (a slow receiver)", async () => {
    const { organisation, live } = await partnerWithKeys();
    await register("partner", live.key, { url: receiverBucket().url(), payload: "reference" });
    const event = (subjectId: string) => writeEvent({ organisationId: organisation.id, environment: "live", api: "partner", event: "lead.submitted", subjectType: "lead", subjectId, detail: {} });
    const dispatchedAt = async (id: string) => (await env.DB.prepare("SELECT dispatched_at FROM events WHERE id = ?").bind(id).first<{ dispatched_at: string | null }>())!.dispatched_at;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const delivered: string[][] = [];
    // The first delivery hangs until released, as a first attempt to a receiver that does not answer would.
    const deliver = async (ids: string[]) => {
      delivered.push(ids);
      if (delivered.length === 1) await held;
    };
    const errors: unknown[] = [];
    const first = await event("lead_slow_1");
    const firstRun = dispatchSoon(testDeps(), deliver, (e) => errors.push(e));
    await vi.waitFor(() => expect(delivered).toHaveLength(1));
    expect(await dispatchedAt(first!.id)).not.toBeNull();

    const second = await event("lead_slow_2");
    const secondRun = dispatchSoon(testDeps(), deliver, (e) => errors.push(e));
    // Claimed and handed on while the first delivery still hangs.
    await vi.waitFor(async () => expect(await dispatchedAt(second!.id)).not.toBeNull(), { timeout: 10_000 });
    await vi.waitFor(() => expect(delivered).toHaveLength(2), { timeout: 10_000 });
    release();
    await Promise.all([firstRun, secondRun]);
    expect(errors).toEqual([]);
  });
});
