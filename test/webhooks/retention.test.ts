/**
 * Retention: events and webhook deliveries (with their attempts) are kept for
 * EVENT_RETENTION_DAYS (90 in wrangler.toml, never below 30) and pruned by the
 * cron in bounded batches. The clock is the cron trigger's scheduled time, so
 * these tests move it instead of waiting; the rows are written in the past
 * (2025), far before anything else in the suite.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { eventInsert } from "../../src/db/webhooks/events";
import { webhookAttempts } from "../../src/db/schema/webhooks";
import { deliveryInsert } from "../../src/db/webhooks/webhooks";
import { DEFAULT_RETENTION_DAYS, MIN_RETENTION_DAYS, retentionDays } from "../../src/domain/retention";
import worker from "../../src/index";
import { pruneExpiredHistory } from "../../src/services/retention/retention";
import { call } from "../helpers/api";
import { lenderWithKeys } from "../helpers/seed";
import { testDeps } from "../helpers/deps";
import { bodyKey, storeBody } from "../../src/services/webhooks/bodies";

const DAY = 24 * 60 * 60 * 1000;
let year = 2000;
/** Each test writes its rows in its own past year, so one test's rows are never another's. */
const nextBase = () => Date.UTC(++year, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();

async function oldEvent(organisationId: string, at: number, dispatched = true) {
  const db = database(env.DB);
  const [row] = await eventInsert(
    db,
    { organisationId, environment: "live", api: "lender", event: "deal.updated", subjectType: "deal", subjectId: `RF-${crypto.randomUUID().slice(0, 6).toUpperCase()}`, detail: { update: { status: "in_review", reason: null, funded_amount: null } } },
    iso(at),
  ).returning();
  if (dispatched) await env.DB.prepare("update events set dispatched_at = created_at where id = ?").bind(row.id).run();
  return row;
}

async function oldDelivery(organisationId: string, eventId: string, at: number, state: "pending" | "succeeded" | "exhausted" | "cancelled", attempts = 2, bodyHash: string | null = null) {
  const db = database(env.DB);
  const id = `whd_ret${crypto.randomUUID().replaceAll("-", "").slice(0, 17)}`;
  await deliveryInsert(db, {
    id,
    // One endpoint per delivery: (endpoint, event) is unique and several deliveries here share an event.
    endpointId: `whe_${id}`,
    organisationId,
    environment: "live",
    eventId,
    event: "deal.updated",
    payloadMode: "reference",
    body: bodyHash ? "" : "{}",
    bodyHash,
    state,
    attemptCount: attempts,
    nextAttemptAt: state === "pending" ? iso(at + 60_000) : null,
    createdAt: iso(at),
    updatedAt: iso(at),
  }).run();
  expect(await exists("webhook_deliveries", id)).toBe(true);
  for (let n = 1; n <= attempts; n++) {
    await db.insert(webhookAttempts).values({ id: `wha_${id}_${n}`, deliveryId: id, attemptNumber: n, trigger: "automatic", attemptedAt: iso(at + n * 1000), statusCode: 500, error: "http_500", durationMs: 10 }).run();
  }
  return id;
}

const exists = async (table: string, id: string) => (await env.DB.prepare(`select count(*) as n from ${table} where id = ?`).bind(id).first<{ n: number }>())!.n === 1;
const attemptCount = async (deliveryId: string) => (await env.DB.prepare("select count(*) as n from webhook_attempts where delivery_id = ?").bind(deliveryId).first<{ n: number }>())!.n;

async function cronAt(scheduledTime: number, testEnv: Cloudflare.Env = env) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron: "* * * * *", scheduledTime }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
}

describe("the retention period", () => {
  it("is EVENT_RETENTION_DAYS, 90 by default, never below the 30 days promised", () => {
    expect(DEFAULT_RETENTION_DAYS).toBe(90);
    expect(retentionDays(undefined)).toBe(90);
    expect(retentionDays("")).toBe(90);
    expect(retentionDays("soon")).toBe(90);
    expect(retentionDays("-5")).toBe(90);
    expect(retentionDays("1.5")).toBe(90);
    expect(retentionDays("10")).toBe(MIN_RETENTION_DAYS);
    expect(retentionDays("30")).toBe(30);
    expect(retentionDays("365")).toBe(365);
  });

  it("is set in wrangler.toml and reaches the worker", () => {
    expect(env.EVENT_RETENTION_DAYS).toBe("90");
  });
});

describe("pruning by the cron", () => {
  it("deletes events and settled deliveries with their attempts once past 90 days, and keeps the rest", async () => {
    const { organisation, live } = await lenderWithKeys();
    const base = nextBase();
    const expired = await oldEvent(organisation.id, base);
    const young = await oldEvent(organisation.id, base + 2 * DAY);
    const settled = await oldDelivery(organisation.id, expired.id, base, "succeeded");
    const exhausted = await oldDelivery(organisation.id, expired.id, base, "exhausted");
    const pending = await oldDelivery(organisation.id, expired.id, base, "pending");
    const youngDelivery = await oldDelivery(organisation.id, young.id, base + 2 * DAY, "cancelled");

    // 89 days after the first rows: nothing is old enough.
    await cronAt(base + 89 * DAY);
    expect(await exists("events", expired.id)).toBe(true);
    expect(await exists("webhook_deliveries", settled)).toBe(true);

    // 91 days after: the first day's settled rows go, the second day's stay.
    await cronAt(base + 91 * DAY);
    expect(await exists("events", expired.id)).toBe(false);
    expect(await exists("webhook_deliveries", settled)).toBe(false);
    expect(await exists("webhook_deliveries", exhausted)).toBe(false);
    expect(await attemptCount(settled)).toBe(0);
    expect(await attemptCount(exhausted)).toBe(0);
    expect(await exists("events", young.id)).toBe(true);
    expect(await exists("webhook_deliveries", youngDelivery)).toBe(true);
    expect(await attemptCount(youngDelivery)).toBe(2);
    // Still owed: a delivery still being retried.
    expect(await exists("webhook_deliveries", pending)).toBe(true);
    expect(await attemptCount(pending)).toBe(2);

    // What is gone is gone from the events list too; what is kept is listed.
    const listed = (await call("GET", "/v1/events?limit=100", { key: live.key })).body.events.map((e: any) => e.id);
    expect(listed).toContain(young.id);
    expect(listed).not.toContain(expired.id);
  });

  it("deletes the R2 bodies of a day once no delivery of that day is left, and keeps a day a delivery still holds", async () => {
    const { organisation } = await lenderWithKeys();
    const base = nextBase();
    const event = await oldEvent(organisation.id, base);
    const deps = testDeps();
    const put = async (at: number, text: string) => {
      const place = { environment: "live" as const, createdAt: iso(at) };
      const hash = await storeBody(deps, place, text);
      return { hash, key: bodyKey(place, hash) };
    };
    const settled = await put(base, '{"settled":1}');
    await oldDelivery(organisation.id, event.id, base, "succeeded", 1, settled.hash);
    // A body whose delivery batch never landed: no row names it.
    const orphan = await put(base + 60_000, '{"orphan":1}');
    const stillPending = await put(base + DAY, '{"pending":1}');
    await oldDelivery(organisation.id, event.id, base + DAY, "pending", 1, stillPending.hash);
    const young = await put(base + 2 * DAY, '{"young":1}');
    await oldDelivery(organisation.id, event.id, base + 2 * DAY, "cancelled", 1, young.hash);

    await cronAt(base + 91 * DAY + 60_000);
    expect(await env.DOCUMENTS.head(settled.key)).toBeNull();
    expect(await env.DOCUMENTS.head(orphan.key)).toBeNull();
    expect(await env.DOCUMENTS.head(stillPending.key)).not.toBeNull();
    expect(await env.DOCUMENTS.head(young.key)).not.toBeNull();
    await cronAt(base + 93 * DAY + 60_000);
    expect(await env.DOCUMENTS.head(young.key)).toBeNull();
    expect(await env.DOCUMENTS.head(stillPending.key)).not.toBeNull();
  });

  it("never prunes an event the outbox has not dispatched yet", async () => {
    const { organisation } = await lenderWithKeys();
    const base = nextBase();
    const owed = await oldEvent(organisation.id, base, false);
    const sent = await oldEvent(organisation.id, base, true);
    // The pruner alone (the cron would dispatch the owed event first, which settles it).
    await pruneExpiredHistory(testDeps({ now: new Date(base + 200 * DAY) }));
    expect(await exists("events", owed.id)).toBe(true);
    expect(await exists("events", sent.id)).toBe(false);
    await env.DB.prepare("update events set dispatched_at = created_at where id = ?").bind(owed.id).run();
  });

  it("follows the var: 30 days prunes what 90 keeps, and a value under 30 still keeps 30 days", async () => {
    const { organisation } = await lenderWithKeys();
    const base = nextBase();
    const event = await oldEvent(organisation.id, base);
    await cronAt(base + 20 * DAY, { ...env, EVENT_RETENTION_DAYS: "7" });
    expect(await exists("events", event.id)).toBe(true);
    await cronAt(base + 31 * DAY, { ...env, EVENT_RETENTION_DAYS: "30" });
    expect(await exists("events", event.id)).toBe(false);
  });

  it("works in bounded batches, oldest first; what is left goes on the next ticks", async () => {
    const { organisation } = await lenderWithKeys();
    const base = nextBase();
    // Earlier tests' past rows (a delivery the cron settled meanwhile) would take places in these small batches.
    for (const table of ["events", "webhook_deliveries"]) await env.DB.prepare(`delete from ${table} where created_at < ?`).bind(iso(base)).run();
    const events = [];
    for (let i = 0; i < 5; i++) events.push(await oldEvent(organisation.id, base + i * 1000));
    const deliveryIds = [];
    for (let i = 0; i < 3; i++) deliveryIds.push(await oldDelivery(organisation.id, events[i].id, base + i * 1000, "succeeded"));
    const now = new Date(base + 100 * DAY);
    const bounds = { batch: 2, rounds: 1 };

    expect(await pruneExpiredHistory(testDeps({ now }), bounds)).toMatchObject({ events: 2, deliveries: 2 });
    expect(await Promise.all(events.map((e) => exists("events", e.id)))).toEqual([false, false, true, true, true]);
    expect(await Promise.all(deliveryIds.map((id) => exists("webhook_deliveries", id)))).toEqual([false, false, true]);
    expect(await attemptCount(deliveryIds[2])).toBe(2);

    expect(await pruneExpiredHistory(testDeps({ now }), bounds)).toMatchObject({ events: 2, deliveries: 1 });
    expect(await pruneExpiredHistory(testDeps({ now }), { batch: 2, rounds: 3 })).toMatchObject({ events: 1, deliveries: 0 });
    expect(await Promise.all(events.map((e) => exists("events", e.id)))).toEqual([false, false, false, false, false]);
    expect(await attemptCount(deliveryIds[2])).toBe(0);
  });
});
