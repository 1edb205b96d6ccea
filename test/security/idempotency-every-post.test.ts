/**
 * Issue 21 item 2, for every POST that writes and honours `Idempotency-Key` (partner /partner/v1,
 * lender /v1, operator /admin/v1), read from the served OpenAPI documents, with the cases
 * test/idempotency.test.ts walks too (test/helpers/keyed-post-cases.ts): an operation without one fails, named.
 *
 * Per operation, with the fault helpers (test/helpers/faults.ts) around the real bindings:
 * - the write fails (its batch, or a lone write statement): nothing is written and the key is free,
 *   so the retry with the key executes once and a further retry replays it;
 * - a fault hits the first D1 call after the write committed: the key stays spent. The first answer
 *   or the retry answers the committed outcome (a replay, or a 500 that says the change was saved),
 *   also once the in-flight lease would have expired (the key's record aged past it), and the write
 *   happened exactly once: what one clean execution writes, counted in rows scoped to the test's
 *   organisation, lead, deal or endpoint.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { call, type ApiResponse } from "../helpers/api";
import { callWithEnv, faultyEnv, type FaultyEnv } from "../helpers/faults";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { BASE, type ApiName } from "../helpers/keyed-posts";
import { KEYED_POST_CASES as CASES, keyedPostsOfTheDocuments, keyedRequest, type KeyedPost } from "../helpers/keyed-post-cases";
import { inData } from "../helpers/data-db";

/**
 * A write: a batch, or a lone insert, update or delete. The key's own bookkeeping (claiming, storing
 * the answer, freeing) and an upload's pending marker (written before the file, swept by the cron) are not.
 */
const BOOKKEEPING = /idempotency_records|pending_uploads/;
const writes = (query: string) => !/^\s*select\b/i.test(query) && !BOOKKEEPING.test(query);
const isWrite = (operation: string, query: string) => (operation === "batch" ? query.split("; ").some(writes) : /^\s*(insert|update|delete)\b/i.test(query) && writes(query));

/** Fails the first write (`write`), or the first D1 call after the first write committed (`afterWrite`). */
function faultAround(where: "write" | "afterWrite"): FaultyEnv {
  let wrote = false;
  return faultyEnv({
    d1: (_call, operation, query) => {
      if (wrote) return where === "afterWrite" && ((wrote = false), true);
      if (!isWrite(operation, query)) return false;
      wrote = true;
      return where === "write";
    },
  });
}

const faulted = (faults: FaultyEnv, api: ApiName, prepared: KeyedPost, idempotencyKey: string) =>
  callWithEnv(faults.env, "POST", `${BASE[api]}${prepared.path}`, keyedRequest(api, prepared, idempotencyKey));
const send = (api: ApiName, prepared: KeyedPost, idempotencyKey: string) =>
  call("POST", `${BASE[api]}${prepared.path}`, { ...keyedRequest(api, prepared, idempotencyKey), unjudged: true });

/** Moves the key's record 61 seconds into the past: an in-flight lease (60 s) has expired, a spent key (24 h) has not. */
const ageKey = (idempotencyKey: string) =>
  inData.prepare("update idempotency_records set expires_at = expires_at - 61 where scope_key like ?").bind(`%:${idempotencyKey}`).run();

const ok = (res: ApiResponse) => res.status >= 200 && res.status < 300;
const saidSaved = (res: ApiResponse) => res.status === 500 && /was saved/.test(res.body?.detail ?? "");
const replayOf = (res: ApiResponse, first: ApiResponse) => res.status === first.status && res.text === first.text && res.headers.get("Idempotent-Replayed") === "true";
const describeAnswer = (res: ApiResponse) => `${res.status} ${res.text.slice(0, 300)}`;

describe("issue 21 item 2: every keyed POST keeps its key spent once its write committed", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("item 2: has a case for every keyed POST of the partner, lender and operator documents", async () => {
    const operations = await keyedPostsOfTheDocuments();
    expect(operations.length).toBeGreaterThan(15);
    expect(operations.filter((op) => !CASES[op]).map((op) => `${op}: no case; add one to KEYED_POST_CASES in test/helpers/keyed-post-cases.ts`)).toEqual([]);
    expect(Object.keys(CASES).filter((op) => !operations.includes(op))).toEqual([]);
  });

  it("item 2: the 500 promises a safe retry only where one is: a read, or a keyed write that saved nothing", async () => {
    // A write without a key, failing after its batch committed (the read-back of the simulated offers):
    // the offers are there, so no "safe to retry".
    const simulation = await CASES["partner POST /sandbox/leads/{id}/simulate"]!();
    const before = await simulation.written();
    const unkeyed = await callWithEnv(faultAround("afterWrite").env, "POST", `/partner/v1${simulation.path}`, { key: simulation.key, body: simulation.body });
    expect(unkeyed.status).toBe(500);
    expect(unkeyed.body.detail).not.toMatch(/safe to retry/);
    expect(unkeyed.body.detail).toMatch(/may have been saved/);
    expect(await simulation.written()).toBeGreaterThan(before);
    // A write without a key whose batch failed: the caller cannot tell it from the above, so no promise either.
    const partner = await partnerWithKeys();
    const failedUnkeyed = await callWithEnv(faultAround("write").env, "POST", "/partner/v1/leads", { key: partner.sandbox.key, body: completeUkLead() });
    expect(failedUnkeyed.status).toBe(500);
    expect(failedUnkeyed.body.detail).not.toMatch(/safe to retry/);
    // A read changes nothing: safe to retry.
    const readFailed = await callWithEnv(faultyEnv({ d1: "every" }).env, "GET", "/partner/v1/leads", { key: partner.sandbox.key });
    expect(readFailed.status).toBe(500);
    expect(readFailed.body.detail).toMatch(/safe to retry/);
  });

  for (const label of Object.keys(CASES)) {
    const api = label.split(" ")[0] as ApiName;
    it(`item 2: ${label}: a failed write frees the key; a fault after the committed write keeps it spent, once`, { timeout: 90_000 }, async () => {
      // The write fails: nothing written, the key free; the retry executes once, the next replays.
      const clean = await CASES[label]!();
      const cleanKey = `idem-fault-${crypto.randomUUID()}`;
      const before = await clean.written();
      const failing = faultAround("write");
      const failed = await faulted(failing, api, clean, cleanKey);
      expect(failing.switches.d1.failed.length, `${label} made no D1 write to fail`).toBe(1);
      expect(failed.status, describeAnswer(failed)).toBe(500);
      // Nothing was saved and the key is free: the one answer that may promise a safe retry.
      expect(failed.body.detail).toMatch(/before anything was saved; it is safe to retry/);
      expect(await clean.written(), "the failed write left rows").toBe(before);
      const retried = await send(api, clean, cleanKey);
      expect(ok(retried), describeAnswer(retried)).toBe(true);
      expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
      const once = (await clean.written()) - before;
      expect(once, "one execution writes something this case counts").toBeGreaterThan(0);
      const replay = await send(api, clean, cleanKey);
      expect(replayOf(replay, retried), describeAnswer(replay)).toBe(true);
      expect((await clean.written()) - before).toBe(once);

      // A fault right after the write committed: the key stays spent, the write happens once.
      const prepared = await CASES[label]!();
      const idempotencyKey = `idem-fault-${crypto.randomUUID()}`;
      const start = await prepared.written();
      const faults = faultAround("afterWrite");
      const first = await faulted(faults, api, prepared, idempotencyKey);
      expect(faults.switches.d1.failed.length, `${label}: no D1 call followed the write`).toBe(1);
      expect(ok(first) || saidSaved(first), describeAnswer(first)).toBe(true);
      const retry = await send(api, prepared, idempotencyKey);
      expect(saidSaved(retry) || (ok(first) && replayOf(retry, first)), `retry: ${describeAnswer(retry)}`).toBe(true);
      await ageKey(idempotencyKey);
      const late = await send(api, prepared, idempotencyKey);
      expect(saidSaved(late) || (ok(first) && replayOf(late, first)), `retry after the lease: ${describeAnswer(late)}`).toBe(true);
      expect((await prepared.written()) - start, "the write happened exactly once").toBe(once);
    });
  }
});
