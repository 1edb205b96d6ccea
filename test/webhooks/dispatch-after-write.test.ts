import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { createLead } from "../leads/helpers";
import { partnerWithKeys } from "../helpers/seed";
import { receiverBucket, register, settleOutbox } from "./support/webhooks";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

describe("dispatch after a write", () => {
  it("turns the events a successful write put in the outbox into deliveries before the request's work ends", async () => {
    const { organisation, live } = await partnerWithKeys();
    await register("partner", live.key, { url: receiverBucket().url() });
    const lead = await createLead(live.key);

    const ctx = createExecutionContext();
    const res = await createApp().request(
      `http://api.test/partner/v1/leads/${lead.id}/submit`,
      { method: "POST", headers: { "X-API-Key": live.key } },
      { ...env, DISPATCH_AFTER_WRITE: "true" },
      ctx,
    );
    expect(res.status).toBe(200);
    await waitOnExecutionContext(ctx);

    const events = await env.DB.prepare("SELECT event, dispatched_at FROM events WHERE organisation_id = ? ORDER BY created_at, rowid").bind(organisation.id).all<{ event: string; dispatched_at: string | null }>();
    expect(events.results.map((e) => e.event)).toEqual(expect.arrayContaining(["lead.submitted"]));
    expect(events.results.every((e) => e.dispatched_at !== null)).toBe(true);
    const deliveries = await env.DB.prepare(
      "SELECT count(*) AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.organisation_id = ?",
    ).bind(organisation.id).first<{ n: number }>();
    expect(deliveries!.n).toBe(events.results.length);
  });

  it("runs no dispatch after a write that put no event in the outbox, and one after a write that did", async () => {
    const { live } = await partnerWithKeys();
    // The statements the worker prepares, seen through the binding the request (and its waitUntil) uses.
    const prepared: string[] = [];
    // The request reads and writes through a D1 session of the binding (middleware/database.ts), so its sessions are seen too.
    const seeing = <T extends object>(binding: T): T =>
      new Proxy(binding, {
        get(target, property) {
          const value = Reflect.get(target, property, target);
          if (property === "prepare") return (sql: string) => (prepared.push(sql), (value as (sql: string) => unknown).call(target, sql));
          if (property === "withSession") return (start?: string) => seeing((value as (start?: string) => object).call(target, start));
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    const DB = seeing(env.DB);
    const readsOutbox = () => prepared.some((sql) => /from "events"/i.test(sql) && /"dispatched_at" is null/i.test(sql));
    const send = async (path: string, body?: unknown) => {
      const ctx = createExecutionContext();
      const res = await createApp().request(
        `http://api.test/partner/v1${path}`,
        { method: "POST", headers: { "X-API-Key": live.key, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined },
        { ...env, DB, DISPATCH_AFTER_WRITE: "true" },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };

    const created = await send("/leads", { country: "GB", business: { name: "Quiet Outbox Ltd" }, funding: { amount: 20000, purpose: "working_capital" } });
    expect(created.status).toBe(201);
    expect(prepared.some((sql) => /insert into "leads"/i.test(sql))).toBe(true);
    expect(readsOutbox()).toBe(false);

    const lead = await createLead(live.key);
    prepared.length = 0;
    expect((await send(`/leads/${lead.id}/submit`)).status).toBe(200);
    expect(readsOutbox()).toBe(true);
  });

  it("leaves the outbox alone when the var is off (the suite drives dispatch itself)", async () => {
    const { organisation, live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const ctx = createExecutionContext();
    await createApp().request(`http://api.test/partner/v1/leads/${lead.id}/submit`, { method: "POST", headers: { "X-API-Key": live.key } }, env, ctx);
    await waitOnExecutionContext(ctx);
    const pending = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE organisation_id = ? AND dispatched_at IS NULL").bind(organisation.id).first<{ n: number }>();
    expect(pending!.n).toBeGreaterThan(0);
  });
});
