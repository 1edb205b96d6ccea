/**
 * Issue 21 item 2, for every POST that writes and honours `Idempotency-Key` (partner /partner/v1,
 * lender /v1, operator /admin/v1), read from the served OpenAPI documents as test/idempotency.test.ts
 * reads them: an operation without a case in CASES fails, named.
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
import { ADMIN_TOKEN, call, type ApiResponse } from "../helpers/api";
import { callWithEnv, faultyEnv, type FaultyEnv } from "../helpers/faults";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead } from "../leads/helpers";
import { firmOffer, routedLead } from "../lender/helpers";
import { twoLenderPanel } from "../routing/helpers";
import { receiverBucket } from "../webhooks/support/webhooks";
import { BASE, countOf, deliveriesOf, eventsOf, pingedWebhookOf, pdfUpload as sharedPdfUpload, read, sandboxSubmittedLead, testDeal, webhookOf, type ApiName } from "../helpers/keyed-posts";

interface Prepared {
  /** The API key; absent on the operator API, which takes the operator's token. */
  key?: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  /** What the write leaves, in rows scoped to this case's organisation (or its lead, deal, endpoint): one more execution, a higher figure. */
  written: () => Promise<number>;
}

const leadsOf = (organisationId: string) => countOf("select count(*) as n from leads where organisation_id = ?", organisationId);

const BOUNDARY = "idem-fault-boundary-41c2";
const pdfUpload = () => sharedPdfUpload(BOUNDARY);


const webhookCases = (api: "partner" | "lender"): Record<string, () => Promise<Prepared>> => ({
  [`${api} POST /webhooks`]: async () => {
    const keys = api === "partner" ? await partnerWithKeys() : await lenderWithKeys();
    return {
      key: keys.sandbox.key,
      path: "/webhooks",
      body: { url: receiverBucket().url(), events: [api === "partner" ? "lead.funded" : "deal.updated"] },
      written: () => countOf("select count(*) as n from webhook_endpoints where organisation_id = ?", keys.organisation.id),
    };
  },
  [`${api} POST /webhooks/{id}/rotate-secret`]: async () => {
    const hook = await webhookOf(api);
    const original = (await env.DB.prepare("select secret_sealed as s from webhook_endpoints where id = ?").bind(hook.id).first<{ s: string }>())!.s;
    return {
      key: hook.key,
      path: `/webhooks/${hook.id}/rotate-secret`,
      // One rotation: a new secret, the original kept as the previous one. Two: the previous one is not the original.
      written: () =>
        countOf(
          "select (secret_sealed != ?1) + (previous_secret_sealed is not null and previous_secret_sealed != ?1) as n from webhook_endpoints where id = ?2",
          original,
          hook.id,
        ),
    };
  },
  [`${api} POST /webhooks/{id}/test`]: async () => {
    const hook = await webhookOf(api);
    return { key: hook.key, path: `/webhooks/${hook.id}/test`, written: () => deliveriesOf(hook.id) };
  },
  [`${api} POST /webhooks/{id}/deliveries/{delivery_id}/retry`]: async () => {
    const hook = await pingedWebhookOf(api);
    return {
      key: hook.key,
      path: `/webhooks/${hook.id}/deliveries/${hook.deliveryId}/retry`,
      written: () => countOf("select count(*) as n from webhook_attempts where delivery_id = ?", hook.deliveryId),
    };
  },
});

/** Every POST that honours `Idempotency-Key` and writes, keyed `api METHOD path` as the documents declare it. */
const CASES: Record<string, () => Promise<Prepared>> = {
  "partner POST /leads": async () => {
    const partner = await partnerWithKeys();
    return { key: partner.sandbox.key, path: "/leads", body: completeUkLead(), written: () => leadsOf(partner.organisation.id) };
  },
  "partner POST /leads/{id}/submit": async () => {
    await twoLenderPanel();
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    return {
      key: partner.sandbox.key,
      path: `/leads/${lead.id}/submit`,
      written: () => countOf("select count(*) as n from events where subject_id = ? and event = 'lead.submitted'", lead.id),
    };
  },
  "partner POST /leads/{id}/renewals": async () => {
    const { partner, key, lead } = await sandboxSubmittedLead();
    const offers = await read(key, `/partner/v1/leads/${lead.id}/offers`);
    expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offers.offers[0].id}/acceptance`, { key })).status).toBe(200);
    expect((await call("POST", `/partner/v1/sandbox/leads/${lead.id}/simulate`, { key, body: { event: "fund" } })).status).toBe(200);
    return { key, path: `/leads/${lead.id}/renewals`, written: () => leadsOf(partner.organisation.id) };
  },
  "partner POST /leads/{id}/hub-link": async () => {
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    return {
      key: partner.sandbox.key,
      path: `/leads/${lead.id}/hub-link`,
      written: () => countOf("select coalesce((select generation from hub_links where lead_id = ?), 0) as n", lead.id),
    };
  },
  "partner POST /leads/{id}/documents": async () => {
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    return {
      key: partner.sandbox.key,
      path: `/leads/${lead.id}/documents`,
      rawBody: pdfUpload(),
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      written: async () => (await read(partner.sandbox.key, `/partner/v1/leads/${lead.id}/documents`)).documents.length,
    };
  },
  "partner POST /leads/{id}/offers/{offerId}/acceptance": async () => {
    const { partner, key, lead } = await sandboxSubmittedLead();
    const offers = await read(key, `/partner/v1/leads/${lead.id}/offers`);
    return { key, path: `/leads/${lead.id}/offers/${offers.offers[0].id}/acceptance`, written: () => eventsOf(partner.organisation.id) };
  },
  "partner POST /sandbox/leads/{id}/simulate": async () => {
    const { key, lead } = await sandboxSubmittedLead();
    return {
      key,
      path: `/sandbox/leads/${lead.id}/simulate`,
      body: { event: "offers" },
      // Every execution supersedes the offers shown and adds a fresh set: the rows, superseded ones included.
      written: () => countOf("select count(*) as n from offers where lead_id = ?", lead.id),
    };
  },
  ...webhookCases("partner"),
  "lender POST /referrals": async () => {
    const { keys, a } = await routedLead();
    const organisationId = a.id;
    return { key: keys.a.live, path: "/referrals", body: completeUkLead(), written: async () => (await leadsOf(organisationId)) + (await eventsOf(organisationId)) };
  },
  "lender POST /test/deals": async () => {
    const lender = await lenderWithKeys();
    return { key: lender.sandbox.key, path: "/test/deals", written: () => countOf("select count(*) as n from deals where lender_organisation_id = ?", lender.organisation.id) };
  },
  "lender POST /test/deals/{ref}/simulate": async () => {
    const { lender, key, ref } = await testDeal();
    return { key, path: `/test/deals/${ref}/simulate`, body: { event: "message.created" }, written: () => eventsOf(lender.organisation.id) };
  },
  "lender POST /deals/{ref}/status": async () => {
    const { lender, key, ref } = await testDeal();
    return { key, path: `/deals/${ref}/status`, body: { status: "declined", reason: "other" }, written: () => eventsOf(lender.organisation.id) };
  },
  "lender POST /deals/{ref}/offers": async () => {
    const { key, ref } = await testDeal();
    return { key, path: `/deals/${ref}/offers`, body: firmOffer(), written: async () => (await read(key, `/v1/deals/${ref}/offers`)).offers.length };
  },
  "lender POST /deals/{ref}/messages": async () => {
    const { key, ref } = await testDeal();
    return { key, path: `/deals/${ref}/messages`, body: { body: "Hello" }, written: async () => (await read(key, `/v1/deals/${ref}/messages`)).messages.length };
  },
  "lender POST /deals/{ref}/requests": async () => {
    const { key, ref } = await testDeal();
    return {
      key,
      path: `/deals/${ref}/requests`,
      body: { item_type: "bank_statements_6m" },
      written: async () => (await read(key, `/v1/deals/${ref}/requests`)).requests.length,
    };
  },
  "lender POST /deals/{ref}/requests/{id}/waive": async () => {
    const { lender, key, ref } = await testDeal();
    const request = await call("POST", `/v1/deals/${ref}/requests`, { key, body: { item_type: "bank_statements_6m" } });
    if (request.status >= 300) throw new Error(`request: ${request.status} ${request.text}`);
    const id = request.body.request.id as string;
    return { key, path: `/deals/${ref}/requests/${id}/waive`, written: () => countOf("select count(*) as n from document_requests where id = ? and waived_at is not null", id) };
  },
  ...webhookCases("lender"),
  "admin POST /organisations": async () => {
    const name = `Idem fault org ${crypto.randomUUID()}`;
    return { path: "/organisations", body: { name, kind: "partner" }, written: () => countOf("select count(*) as n from organisations where name = ?", name) };
  },
  "admin POST /organisations/{id}/keys": async () => {
    const partner = await partnerWithKeys();
    return {
      path: `/organisations/${partner.organisation.id}/keys`,
      body: { environment: "sandbox" },
      written: () => countOf("select count(*) as n from api_keys where organisation_id = ?", partner.organisation.id),
    };
  },
  "admin POST /organisations/{id}/invitations": async () => {
    const partner = await partnerWithKeys();
    return {
      path: `/organisations/${partner.organisation.id}/invitations`,
      body: { email: `idem-fault-${crypto.randomUUID()}@example.com`, role: "member" },
      written: () => countOf("select count(*) as n from portal_invitations where organisation_id = ?", partner.organisation.id),
    };
  },
};

/** The POST operations of a served document that declare `idempotency_key_reused`. */
async function keyedPosts(api: ApiName) {
  const res = await call("GET", `${BASE[api]}/openapi.json`, api === "admin" ? { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } } : {});
  if (res.status !== 200) throw new Error(`${api} OpenAPI document: ${res.status}`);
  const found: string[] = [];
  for (const [path, item] of Object.entries<Record<string, { responses?: Record<string, { description?: string }> }>>(res.body.paths)) {
    const post = item.post;
    if (post && /idempotency_key_reused/.test(post.responses?.["422"]?.description ?? "")) found.push(`${api} POST ${path}`);
  }
  return found;
}

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

const headersFor = (api: ApiName, idempotencyKey: string) => ({ "Idempotency-Key": idempotencyKey, ...(api === "admin" ? { Authorization: `Bearer ${ADMIN_TOKEN}` } : {}) });
const optionsFor = (api: ApiName, prepared: Prepared, idempotencyKey: string) => ({
  key: prepared.key,
  headers: headersFor(api, idempotencyKey),
  body: prepared.body,
  rawBody: prepared.rawBody,
  contentType: prepared.contentType,
});
const faulted = (faults: FaultyEnv, api: ApiName, prepared: Prepared, idempotencyKey: string) =>
  callWithEnv(faults.env, "POST", `${BASE[api]}${prepared.path}`, optionsFor(api, prepared, idempotencyKey));
const send = (api: ApiName, prepared: Prepared, idempotencyKey: string) =>
  call("POST", `${BASE[api]}${prepared.path}`, { ...optionsFor(api, prepared, idempotencyKey), unjudged: true });

/** Moves the key's record 61 seconds into the past: an in-flight lease (60 s) has expired, a spent key (24 h) has not. */
const ageKey = (idempotencyKey: string) =>
  env.DB.prepare("update idempotency_records set expires_at = expires_at - 61 where scope_key like ?").bind(`%:${idempotencyKey}`).run();

const ok = (res: ApiResponse) => res.status >= 200 && res.status < 300;
const saidSaved = (res: ApiResponse) => res.status === 500 && /was saved/.test(res.body?.detail ?? "");
const replayOf = (res: ApiResponse, first: ApiResponse) => res.status === first.status && res.text === first.text && res.headers.get("Idempotent-Replayed") === "true";
const describeAnswer = (res: ApiResponse) => `${res.status} ${res.text.slice(0, 300)}`;

describe("issue 21 item 2: every keyed POST keeps its key spent once its write committed", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("item 2: has a case for every keyed POST of the partner, lender and operator documents", async () => {
    const operations = [...(await keyedPosts("partner")), ...(await keyedPosts("lender")), ...(await keyedPosts("admin"))];
    expect(operations.length).toBeGreaterThan(15);
    expect(operations.filter((op) => !CASES[op]).map((op) => `${op}: no case; add one to CASES in test/security/item-02-idempotency-every-post.test.ts`)).toEqual([]);
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
