/**
 * Decisions doc: `Idempotency-Key` on POST, on both APIs (issues 20 and 21). This walks every POST
 * operation of the served OpenAPI documents (partner, lender and operator) that declares the key's
 * refusal (`idempotency_key_reused` among its 422 codes; prequalification opts out and declares none),
 * and for each: the same key with the same body replays the first answer (same status and body,
 * `Idempotent-Replayed: true`) and changes nothing a second execution would change; the same key
 * with another body is 422 `idempotency_key_reused`. An operation without a fixture in FIXTURES fails.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, type CallOptions } from "./helpers/api";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "./helpers/seed";
import { completeUkLead, createLead } from "./leads/helpers";
import { firmOffer, routedLead } from "./lender/helpers";
import { twoLenderPanel } from "./routing/helpers";
import { receiverBucket } from "./webhooks/support/webhooks";
import { BASE, countOf, deliveriesOf, eventsOf, pingedWebhookOf, pdfUpload as sharedPdfUpload, read, sandboxSubmittedLead, testDeal, webhookOf, type ApiName } from "./helpers/keyed-posts";

interface Prepared {
  /** The API key; absent on the operator API, which takes the operator's token. */
  key?: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  /** What a second execution would change (rows, the resource as read back); equal before and after the replay. */
  snapshot: () => Promise<unknown>;
}


const BOUNDARY = "idem-boundary-7f3a";
const pdfUpload = () => sharedPdfUpload(BOUNDARY);

const endpointRow = (id: string) => env.DB.prepare("select * from webhook_endpoints where id = ?").bind(id).first();

const webhookFixtures = (api: "partner" | "lender"): Record<string, () => Promise<Prepared>> => ({
  [`${api} POST /webhooks`]: async () => {
    const keys = api === "partner" ? await partnerWithKeys() : await lenderWithKeys();
    return {
      key: keys.sandbox.key,
      path: "/webhooks",
      body: { url: receiverBucket().url(), events: [api === "partner" ? "lead.funded" : "deal.updated"] },
      snapshot: () => countOf("select count(*) as n from webhook_endpoints where organisation_id = ?", keys.organisation.id),
    };
  },
  [`${api} POST /webhooks/{id}/rotate-secret`]: async () => {
    const hook = await webhookOf(api);
    return { key: hook.key, path: `/webhooks/${hook.id}/rotate-secret`, snapshot: () => endpointRow(hook.id) };
  },
  [`${api} POST /webhooks/{id}/test`]: async () => {
    const hook = await webhookOf(api);
    return { key: hook.key, path: `/webhooks/${hook.id}/test`, snapshot: () => deliveriesOf(hook.id) };
  },
  [`${api} POST /webhooks/{id}/deliveries/{delivery_id}/retry`]: async () => {
    const hook = await pingedWebhookOf(api);
    return {
      key: hook.key,
      path: `/webhooks/${hook.id}/deliveries/${hook.deliveryId}/retry`,
      snapshot: () => countOf("select count(*) as n from webhook_attempts where delivery_id = ?", hook.deliveryId),
    };
  },
});

/** Every POST that honours `Idempotency-Key`, keyed `api METHOD path` as the documents declare it. */
const FIXTURES: Record<string, () => Promise<Prepared>> = {
  "partner POST /leads": async () => {
    const partner = await partnerWithKeys();
    return { key: partner.sandbox.key, path: "/leads", body: completeUkLead(), snapshot: () => countOf("select count(*) as n from leads where organisation_id = ?", partner.organisation.id) };
  },
  "partner POST /leads/{id}/submit": async () => {
    await twoLenderPanel();
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    return {
      key: partner.sandbox.key,
      path: `/leads/${lead.id}/submit`,
      snapshot: async () => [await eventsOf(partner.organisation.id), await countOf("select count(*) as n from deals where lead_id = ?", lead.id)],
    };
  },
  "partner POST /leads/{id}/renewals": async () => {
    const { partner, key, lead } = await sandboxSubmittedLead();
    const offers = await read(key, `/partner/v1/leads/${lead.id}/offers`);
    expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offers.offers[0].id}/acceptance`, { key })).status).toBe(200);
    expect((await call("POST", `/partner/v1/sandbox/leads/${lead.id}/simulate`, { key, body: { event: "fund" } })).status).toBe(200);
    return { key, path: `/leads/${lead.id}/renewals`, snapshot: () => countOf("select count(*) as n from leads where organisation_id = ?", partner.organisation.id) };
  },
  "partner POST /leads/{id}/hub-link": async () => {
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    return { key: partner.sandbox.key, path: `/leads/${lead.id}/hub-link`, snapshot: async () => (await read(partner.sandbox.key, `/partner/v1/leads/${lead.id}`)).upload_url };
  },
  "partner POST /leads/{id}/documents": async () => {
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    return {
      key: partner.sandbox.key,
      path: `/leads/${lead.id}/documents`,
      rawBody: pdfUpload(),
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      snapshot: async () => (await read(partner.sandbox.key, `/partner/v1/leads/${lead.id}/documents`)).documents.length,
    };
  },
  "partner POST /leads/{id}/offers/{offerId}/acceptance": async () => {
    const { partner, key, lead } = await sandboxSubmittedLead();
    const offers = await read(key, `/partner/v1/leads/${lead.id}/offers`);
    return { key, path: `/leads/${lead.id}/offers/${offers.offers[0].id}/acceptance`, snapshot: () => eventsOf(partner.organisation.id) };
  },
  "partner POST /sandbox/leads/{id}/simulate": async () => {
    const { key, lead } = await sandboxSubmittedLead();
    return {
      key,
      path: `/sandbox/leads/${lead.id}/simulate`,
      body: { event: "offers" },
      snapshot: async () => (await read(key, `/partner/v1/leads/${lead.id}/offers`)).offers.length,
    };
  },
  ...webhookFixtures("partner"),
  "lender POST /referrals": async () => {
    const { keys } = await routedLead();
    return { key: keys.a.live, path: "/referrals", body: completeUkLead(), snapshot: async () => (await read(keys.a.live, "/v1/referrals")).referrals.length };
  },
  "lender POST /test/deals": async () => {
    const lender = await lenderWithKeys();
    return { key: lender.sandbox.key, path: "/test/deals", snapshot: () => countOf("select count(*) as n from deals where lender_organisation_id = ?", lender.organisation.id) };
  },
  "lender POST /test/deals/{ref}/simulate": async () => {
    const { lender, key, ref } = await testDeal();
    return { key, path: `/test/deals/${ref}/simulate`, body: { event: "message.created" }, snapshot: () => eventsOf(lender.organisation.id) };
  },
  "lender POST /deals/{ref}/status": async () => {
    const { lender, key, ref } = await testDeal();
    return { key, path: `/deals/${ref}/status`, body: { status: "declined", reason: "other" }, snapshot: () => eventsOf(lender.organisation.id) };
  },
  "lender POST /deals/{ref}/offers": async () => {
    const { key, ref } = await testDeal();
    return { key, path: `/deals/${ref}/offers`, body: firmOffer(), snapshot: async () => (await read(key, `/v1/deals/${ref}/offers`)).offers.length };
  },
  "lender POST /deals/{ref}/messages": async () => {
    const { key, ref } = await testDeal();
    return { key, path: `/deals/${ref}/messages`, body: { body: "Hello" }, snapshot: async () => JSON.stringify(await read(key, `/v1/deals/${ref}/messages`)) };
  },
  "lender POST /deals/{ref}/requests": async () => {
    const { key, ref } = await testDeal();
    return { key, path: `/deals/${ref}/requests`, body: { item_type: "bank_statements_6m" }, snapshot: async () => JSON.stringify(await read(key, `/v1/deals/${ref}/requests`)) };
  },
  "lender POST /deals/{ref}/requests/{id}/waive": async () => {
    const { lender, key, ref } = await testDeal();
    const request = await call("POST", `/v1/deals/${ref}/requests`, { key, body: { item_type: "bank_statements_6m" } });
    if (request.status >= 300) throw new Error(`request: ${request.status} ${request.text}`);
    return { key, path: `/deals/${ref}/requests/${request.body.request.id}/waive`, snapshot: () => eventsOf(lender.organisation.id) };
  },
  ...webhookFixtures("lender"),
  "admin POST /organisations": async () => {
    const name = `Idem org ${crypto.randomUUID()}`;
    return { path: "/organisations", body: { name, kind: "partner" }, snapshot: () => countOf("select count(*) as n from organisations where name = ?", name) };
  },
  "admin POST /organisations/{id}/keys": async () => {
    const partner = await partnerWithKeys();
    return {
      path: `/organisations/${partner.organisation.id}/keys`,
      body: { environment: "sandbox" },
      snapshot: () => countOf("select count(*) as n from api_keys where organisation_id = ?", partner.organisation.id),
    };
  },
  "admin POST /organisations/{id}/invitations": async () => {
    const partner = await partnerWithKeys();
    return {
      path: `/organisations/${partner.organisation.id}/invitations`,
      body: { email: `idem-${crypto.randomUUID()}@example.com`, role: "member" },
      snapshot: () => countOf("select count(*) as n from portal_invitations where organisation_id = ?", partner.organisation.id),
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

const send = (api: ApiName, prepared: Prepared, idempotencyKey: string, body: "same" | "other") =>
  call("POST", `${BASE[api]}${prepared.path}`, {
    key: prepared.key,
    headers: { "Idempotency-Key": idempotencyKey, ...(api === "admin" ? { Authorization: `Bearer ${ADMIN_TOKEN}` } : {}) },
    ...(body === "other"
      ? { body: { another: "body" } }
      : ({ body: prepared.body, rawBody: prepared.rawBody, contentType: prepared.contentType } satisfies CallOptions)),
  });

describe("Idempotency-Key on every POST", () => {
  it("walks every keyed POST of the partner, lender and operator documents, and has a fixture for each", async () => {
    const operations = [...(await keyedPosts("partner")), ...(await keyedPosts("lender")), ...(await keyedPosts("admin"))];
    expect(operations.length).toBeGreaterThan(15);
    expect(operations.filter((op) => !FIXTURES[op]).map((op) => `${op}: no fixture; add one to FIXTURES in test/idempotency.test.ts`)).toEqual([]);
    // A fixture whose operation left the documents is stale.
    expect(Object.keys(FIXTURES).filter((op) => !operations.includes(op))).toEqual([]);
  });

  for (const label of Object.keys(FIXTURES)) {
    const api = label.split(" ")[0] as ApiName;
    it(`${label}: the same key and body replay the first answer and change nothing; another body is 422`, { timeout: 60_000 }, async () => {
      const prepared = await FIXTURES[label]!();
      const idempotencyKey = `idem-${crypto.randomUUID()}`;
      const first = await send(api, prepared, idempotencyKey, "same");
      expect(first.status, first.text).toBeGreaterThanOrEqual(200);
      expect(first.status, first.text).toBeLessThan(300);
      expect(first.headers.get("Idempotent-Replayed")).toBeNull();
      const before = await prepared.snapshot();

      const again = await send(api, prepared, idempotencyKey, "same");
      expect(again.status).toBe(first.status);
      expect(again.text).toBe(first.text);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await prepared.snapshot()).toEqual(before);

      const other = await send(api, prepared, idempotencyKey, "other");
      expectProblem(other, 422, "idempotency_key_reused");
      expect(await prepared.snapshot()).toEqual(before);
    });
  }
});
