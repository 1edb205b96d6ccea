import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import type { RegisterLookupMessage } from "../../src/services/registers/lookups";
import { PRODUCTION, type ApiResponse } from "../helpers/api";
import { runQueueBatch } from "../helpers/queue";
import { completeUkLead } from "../leads/helpers";
import { inData } from "../helpers/data-db";

/** A UK lead naming `companyNumber` (and, optionally, a VAT number). */
export const ukLead = (companyNumber: string, vatNumber: string | null = null, overrides: Record<string, unknown> = {}) => {
  const base = completeUkLead();
  return { ...base, business: { ...base.business, company_number: companyNumber, vat: vatNumber ? { number: vatNumber } : undefined }, ...overrides };
};

/** A REGISTER_LOOKUPS stand-in that only records what was sent. */
export function recordingQueue() {
  const sent: RegisterLookupMessage[] = [];
  const queue = {
    async send(body: RegisterLookupMessage) {
      sent.push(body);
    },
    async sendBatch(messages: { body: RegisterLookupMessage }[]) {
      sent.push(...messages.map((m) => m.body));
    },
  } as unknown as Queue;
  return { queue, sent };
}

/** Calls the app with REGISTER_LOOKUPS replaced by `queue`, so a test sees exactly what a request enqueued. */
export async function callRecording(queue: Queue, method: string, path: string, key: string, body?: unknown): Promise<ApiResponse> {
  const headers: Record<string, string> = { "X-API-Key": key };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await createApp().request(
    `${PRODUCTION}${path}`,
    { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
    { ...env, REGISTER_LOOKUPS: queue },
    createExecutionContext(),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, text };
}

export interface LookupRow {
  owner_id: string;
  kind: "registry" | "vat";
  environment: "live" | "sandbox";
  number: string;
  country: string;
  lookup_id: string;
  answer: any;
  checked_at: string | null;
  attempts: number;
  due_at: string | null;
}

export async function lookupRows(ownerId: string): Promise<LookupRow[]> {
  const { results } = await inData.prepare("select * from register_answers where owner_id = ? order by kind").bind(ownerId).all<any>();
  return results.map((r) => ({ ...r, answer: r.answer === null ? null : JSON.parse(r.answer) }));
}

/** The messages a lead's due lookups stand for (what the queue holds for it). */
export async function dueMessages(ownerId: string): Promise<RegisterLookupMessage[]> {
  return (await lookupRows(ownerId)).filter((r) => r.due_at !== null).map((r) => ({ owner_id: r.owner_id, kind: r.kind, lookup_id: r.lookup_id, environment: r.environment }));
}

/** Hands messages to the worker's queue handler as the Queues runtime would, and reads what it decided. */
export const consumeLookups = (messages: RegisterLookupMessage[], overrides: Partial<Cloudflare.Env> = {}) =>
  runQueueBatch("register-lookups", messages, { env: { ...env, ...overrides } });

/** Runs every due lookup of a lead once. */
export async function settle(ownerId: string) {
  return consumeLookups(await dueMessages(ownerId));
}

/**
 * The queue's retry delay has passed: the owners' pending rows are due now.
 * The consumer puts back a message delivered before its row is due, so a test
 * that redelivers at once first moves the rows' due time, as time would.
 */
export async function delayPassed(...ownerIds: string[]) {
  await inData.prepare(`update register_answers set due_at = ? where due_at is not null and owner_id in (${ownerIds.map(() => "?").join(",")})`)
    .bind(new Date().toISOString(), ...ownerIds)
    .run();
}

/**
 * The cron's safety net re-sends overdue lookups of every lead, at most 100 a tick, oldest first, and the
 * files of a worker share its storage (vitest.config.mts): the lookups other files left due (they hand
 * messages to the consumer themselves, or never) would take those places before this test's. This marks
 * every overdue lookup re-sent now, as a tick would, so the next sweep sees only what the test makes overdue.
 */
export async function settleOverdueLookups() {
  const now = new Date().toISOString();
  await inData.prepare("update register_answers set due_at = ? where due_at is not null and due_at < ?").bind(now, now).run();
}
