import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { createApp } from "../../../src/app";
import { database } from "../../../src/db/client";
import { eventInsert, type NewEvent } from "../../../src/db/webhooks/events";
import { consumeWebhookDeliveries } from "../../../src/jobs/webhook-consumer";
import type { DeliveryOptions } from "../../../src/services/webhooks/delivery";
import { dispatchPendingEvents, type DeliveryMessage } from "../../../src/services/webhooks/dispatch";
import { call, PRODUCTION, type ApiResponse, type CallOptions } from "../../helpers/api";
import { testDeps } from "../../helpers/deps";
import { runQueueBatch } from "../../helpers/queue";
import { dataDb, inData } from "../../helpers/data-db";

export const receiverUrl = () => inject("webhookReceiverUrl");
export const dohUrl = () => inject("dohUrl");

export type Api = "partner" | "lender";
export const base = (api: Api) => (api === "partner" ? "/partner/v1" : "/v1");

/** A fresh place on the test receiver: `url(behaviour)` is where deliveries go, `records()` what arrived. */
export function receiverBucket() {
  const bucket = crypto.randomUUID();
  return {
    url: (behaviour = "ok", query = "") => `${receiverUrl()}/r/${bucket}/${behaviour}${query}`,
    async trust(...secrets: string[]) {
      await fetch(`${receiverUrl()}/secrets/${bucket}`, { method: "POST", body: JSON.stringify({ secrets }) });
    },
    async records(): Promise<ReceivedRequest[]> {
      return (await fetch(`${receiverUrl()}/records/${bucket}`)).json();
    },
  };
}

export interface ReceivedRequest {
  behaviour: string;
  headers: Record<string, string>;
  body: string;
  verified: { plain: boolean; timestamped: boolean; stripe: boolean; standard: boolean }[];
}

export type DnsFailure = "servfail" | "refused" | "nxdomain" | "http-502" | "garbage" | "hang";

/** What the stand-in resolver answers for `name`; `fail` makes a lookup fail (see receiver.mjs). */
export async function setDns(name: string, answers: { A?: string[]; AAAA?: string[]; fail?: { A?: DnsFailure; AAAA?: DnsFailure } }) {
  await fetch(`${dohUrl()}/set`, { method: "POST", body: JSON.stringify({ name, ...answers }) });
}

/** Calls the app with some bindings replaced, e.g. ALLOW_PRIVATE_WEBHOOKS "false" as in production. */
export async function callWith(overrides: Partial<Cloudflare.Env>, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers["X-API-Key"] = options.key;
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  const res = await createApp().request(`${options.host ?? PRODUCTION}${path}`, { method, headers, body }, { ...env, ...overrides }, createExecutionContext());
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, text };
}

export async function register(api: Api, key: string, body: Record<string, unknown>, host?: string) {
  const res = await call("POST", `${base(api)}/webhooks`, { key, body, host });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return res.body as { id: string; secret: string; [k: string]: unknown };
}

export async function writeEvent(event: NewEvent) {
  const db = database(dataDb(event.environment));
  const [row] = await eventInsert(db, event).returning();
  return row;
}

/** Runs the dispatcher with a queue that only records, so the test drives the consumer itself. */
/**
 * The files of a worker share its storage (vitest.config.mts), and dispatching is global, as the cron's
 * is: events another file left undispatched would be dispatched, and delivered to that file's endpoints,
 * by this test's `dispatch()` or dispatch-after-write. A file that dispatches runs this before each test
 * (`beforeEach(settleOutbox)`): it marks every waiting event dispatched, so the outbox holds only what
 * the test writes next.
 */
export async function settleOutbox() {
  await inData.prepare("update events set dispatched_at = created_at where dispatched_at is null").run();
}

export async function dispatch() {
  const sent: string[] = [];
  const queue = {
    async sendBatch(messages: { body: DeliveryMessage }[]) {
      sent.push(...messages.map((m) => m.body.delivery_id));
    },
    async send(message: DeliveryMessage) {
      sent.push(message.delivery_id);
    },
  } as unknown as Queue;
  // Each database's outbox, as the cron runs it once per database (docs/capacity.md).
  const live = await dispatchPendingEvents(testDeps({ env: { WEBHOOK_QUEUE: queue }, environment: "live" }));
  const sandbox = await dispatchPendingEvents(testDeps({ env: { WEBHOOK_QUEUE: queue }, environment: "sandbox" }));
  return { events: live.events + sandbox.events, deliveries: live.deliveries + sandbox.deliveries, deliveryIds: sent };
}

/**
 * A delivery's queue message as the dispatcher sends it: with `environment` when the delivery is the
 * sandbox's (in DB_SANDBOX); a live one's without it, as a message sent before the sandbox had its own
 * database, which the consumer reads from DB.
 */
async function messageOf(deliveryId: string): Promise<DeliveryMessage> {
  const inSandbox = await env.DB_SANDBOX.prepare("select 1 from webhook_deliveries where id = ?").bind(deliveryId).first();
  return inSandbox ? { delivery_id: deliveryId, environment: "sandbox" } : { delivery_id: deliveryId };
}

/**
 * Hands messages to the worker's queue handler, as the Queues runtime would, and reads what it decided.
 * With `options` (a shorter timeout) the consumer is called directly, since the handler never passes any.
 */
export const consume = async (deliveryIds: string[], attempts = 1, options?: DeliveryOptions) =>
  runQueueBatch<DeliveryMessage>(
    "webhook-deliveries",
    await Promise.all(deliveryIds.map(messageOf)),
    { env, attempts, consume: options ? (batch) => consumeWebhookDeliveries(batch, env, options) : undefined },
  );

/** Lets the clock "pass" to the next scheduled attempt without waiting: the delivery becomes due now. */
export async function makeDue(deliveryId: string) {
  await inData.prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?").bind(new Date(Date.now() - 1000).toISOString(), deliveryId).run();
}

export async function deliveries(api: Api, key: string, endpointId: string) {
  const res = await call("GET", `${base(api)}/webhooks/${endpointId}/deliveries`, { key });
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${res.text}`);
  return res.body.deliveries as any[];
}

export async function endpoint(api: Api, key: string, endpointId: string) {
  return (await call("GET", `${base(api)}/webhooks/${endpointId}`, { key })).body;
}
