/**
 * One table of every POST that honours `Idempotency-Key`, keyed `api METHOD path` as the served
 * documents declare it, for the two walks over them: test/idempotency.test.ts (replay and reuse) and
 * test/security/idempotency-every-post.test.ts (faults around the write). `keyedPosts` reads
 * the operations from the documents, so an operation without a case here fails both walks, named.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { ADMIN_TOKEN, call } from "./api";
import { lenderWithKeys, partnerWithKeys } from "./seed";
import { BASE, countOf, deliveriesOf, eventsOf, pdfUpload, pingedWebhookOf, read, sandboxSubmittedLead, testDeal, webhookOf, type ApiName } from "./keyed-posts";
import { completeUkLead, createLead } from "../leads/helpers";
import { firmOffer, routedLead } from "../lender/helpers";
import { twoLenderPanel } from "../routing/helpers";
import { receiverBucket } from "../webhooks/support/webhooks";
import { inData } from "./data-db";

export interface KeyedPost {
  /** The API key; absent on the operator API, which takes the operator's token. */
  key?: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  /** What the write leaves, in rows scoped to this case's organisation (or its lead, deal, endpoint): one more execution, a higher figure. */
  written: () => Promise<number>;
  /** What a replay must leave as it was, where the resource read back says more than `written`'s figure (else `written`). */
  snapshot?: () => Promise<unknown>;
}

const BOUNDARY = "idem-boundary-7f3a";
const leadsOf = (organisationId: string) => countOf("select count(*) as n from leads where organisation_id = ?", organisationId);
const endpointRow = (id: string) => inData.prepare("select * from webhook_endpoints where id = ?").bind(id).first();

const webhookCases = (api: "partner" | "lender"): Record<string, () => Promise<KeyedPost>> => ({
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
    const original = (await inData.prepare("select secret_sealed as s from webhook_endpoints where id = ?").bind(hook.id).first<{ s: string }>())!.s;
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
      snapshot: () => endpointRow(hook.id),
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

export const KEYED_POST_CASES: Record<string, () => Promise<KeyedPost>> = {
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
      snapshot: async () => [await eventsOf(partner.organisation.id), await countOf("select count(*) as n from deals where lead_id = ?", lead.id)],
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
      snapshot: async () => (await read(partner.sandbox.key, `/partner/v1/leads/${lead.id}`)).upload_url,
    };
  },
  "partner POST /leads/{id}/application-link": async () => {
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    return {
      key: partner.sandbox.key,
      path: `/leads/${lead.id}/application-link`,
      body: {},
      // A new link revokes the one before, so each execution is one more row.
      written: () => countOf("select count(*) as n from application_links where lead_id = ?", lead.id),
    };
  },
  "partner POST /leads/{id}/documents": async () => {
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.sandbox.key);
    return {
      key: partner.sandbox.key,
      path: `/leads/${lead.id}/documents`,
      rawBody: pdfUpload(BOUNDARY),
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      written: async () => (await read(partner.sandbox.key, `/partner/v1/leads/${lead.id}/documents`)).documents.length,
    };
  },
  "partner POST /leads/{id}/offers/{offerId}/acceptance": async () => {
    const { partner, key, lead } = await sandboxSubmittedLead();
    const offers = await read(key, `/partner/v1/leads/${lead.id}/offers`);
    return { key, path: `/leads/${lead.id}/offers/${offers.offers[0].id}/acceptance`, written: () => eventsOf(partner.organisation.id) };
  },
  "partner POST /leads/{id}/offers/{offerId}/decline": async () => {
    const { partner, key, lead } = await sandboxSubmittedLead();
    const offers = await read(key, `/partner/v1/leads/${lead.id}/offers`);
    return { key, path: `/leads/${lead.id}/offers/${offers.offers[0].id}/decline`, body: { reason_code: "found_elsewhere" }, written: () => eventsOf(partner.organisation.id) };
  },
  "partner POST /sandbox/leads/{id}/simulate": async () => {
    const { key, lead } = await sandboxSubmittedLead();
    return {
      key,
      path: `/sandbox/leads/${lead.id}/simulate`,
      body: { event: "offers" },
      // Every execution supersedes the offers shown and adds a fresh set: the rows, superseded ones included.
      written: () => countOf("select count(*) as n from offers where lead_id = ?", lead.id),
      snapshot: async () => (await read(key, `/partner/v1/leads/${lead.id}/offers`)).offers.length,
    };
  },
  ...webhookCases("partner"),
  "lender POST /referrals": async () => {
    const { keys, a } = await routedLead();
    return {
      key: keys.a.live,
      path: "/referrals",
      body: completeUkLead(),
      written: async () => (await leadsOf(a.id)) + (await eventsOf(a.id)),
      snapshot: async () => (await read(keys.a.live, "/v1/referrals")).referrals.length,
    };
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
    return {
      key,
      path: `/deals/${ref}/messages`,
      body: { body: "Hello" },
      written: async () => (await read(key, `/v1/deals/${ref}/messages`)).messages.length,
      snapshot: async () => JSON.stringify(await read(key, `/v1/deals/${ref}/messages`)),
    };
  },
  "lender POST /deals/{ref}/requests": async () => {
    const { key, ref } = await testDeal();
    return {
      key,
      path: `/deals/${ref}/requests`,
      body: { item_type: "bank_statements_6m" },
      written: async () => (await read(key, `/v1/deals/${ref}/requests`)).requests.length,
      snapshot: async () => JSON.stringify(await read(key, `/v1/deals/${ref}/requests`)),
    };
  },
  "lender POST /deals/{ref}/requests/{id}/waive": async () => {
    const { lender, key, ref } = await testDeal();
    const request = await call("POST", `/v1/deals/${ref}/requests`, { key, body: { item_type: "bank_statements_6m" } });
    if (request.status >= 300) throw new Error(`request: ${request.status} ${request.text}`);
    const id = request.body.request.id as string;
    return {
      key,
      path: `/deals/${ref}/requests/${id}/waive`,
      written: () => countOf("select count(*) as n from document_requests where id = ? and waived_at is not null", id),
      snapshot: () => eventsOf(lender.organisation.id),
    };
  },
  "lender POST /deals/{ref}/repayment-outcome": async () => {
    const funded = await fundedWithCommission();
    return {
      key: funded.key,
      path: `/deals/${funded.ref}/repayment-outcome`,
      body: { outcome: "defaulted" },
      // The outcome on the deal and the clawback entry: one execution, two rows, never more.
      written: () =>
        countOf(
          "select (select count(*) from deals where ref = ?1 and repayment_outcome is not null) + (select count(*) from commission_entries where deal_ref = ?1 and kind = 'clawed_back') as n",
          funded.ref,
        ),
    };
  },
  ...webhookCases("lender"),
  "admin POST /commissions/{id}/payments": async () => {
    const funded = await fundedWithCommission();
    return {
      path: `/commissions/${funded.entryId}/payments`,
      body: { payment_reference: "IDEM-1" },
      written: () => countOf("select count(*) as n from commission_entries where accrued_entry_id = ? and kind = 'paid'", funded.entryId),
    };
  },
  "admin POST /organisations": async () => {
    const name = `Idem org ${crypto.randomUUID()}`;
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
      body: { email: `idem-${crypto.randomUUID()}@example.com`, role: "member" },
      written: () => countOf("select count(*) as n from portal_invitations where organisation_id = ?", partner.organisation.id),
    };
  },
  "admin POST /organisations/{id}/members/{member_id}/sign-in-link": async () => {
    const partner = await partnerWithKeys();
    const memberId = `mem_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
    await env.DB.prepare("insert into portal_members (id, organisation_id, email, role, created_at) values (?, ?, ?, 'admin', ?)")
      .bind(memberId, partner.organisation.id, `idem-${crypto.randomUUID()}@example.com`, new Date().toISOString())
      .run();
    return {
      path: `/organisations/${partner.organisation.id}/members/${memberId}/sign-in-link`,
      // Each link revokes the member's earlier one, so the links issued are counted, not the pending ones.
      written: () => countOf("select count(*) as n from portal_invitations where organisation_id = ? and member_id = ?", partner.organisation.id, memberId),
    };
  },
  "admin POST /attributions/{id}/release": async () => {
    const claim = await attributedLead();
    return {
      path: `/attributions/${claim.id}/release`,
      body: { reason: "Handed over by agreement." },
      // The release and its audit entry: one execution, two rows changed, never four.
      written: () =>
        countOf(
          "select (select count(*) from company_claims where id = ?1 and released_at is not null) + (select count(*) from portal_audit_log where target = ?1 and action = 'attribution.released') as n",
          claim.id,
        ),
    };
  },
};

/** A live deal funded under commission terms: lender A's key, the deal and its accrued entry. */
export async function fundedWithCommission() {
  const routed = await routedLead();
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  const terms = await call("PUT", `/admin/v1/commission-terms/${routed.a.id}/a-loan`, { headers: admin, body: { currency: "GBP", basis: "percentage", rate_bps: 150, clawback_days: 90 } });
  if (terms.status !== 201) throw new Error(`terms: ${terms.status} ${terms.text}`);
  const offer = await call("POST", `/v1/deals/${routed.refA}/offers`, { key: routed.keys.a.live, body: firmOffer() });
  const accepted = await call("POST", `/partner/v1/leads/${routed.lead.id}/offers/${offer.body.id}/acceptance`, { key: routed.partner.live.key });
  const funded = await call("POST", `/v1/deals/${routed.refA}/status`, { key: routed.keys.a.live, body: { status: "funded", funded_amount: 40_000 } });
  if (accepted.status !== 200 || funded.status !== 200) throw new Error(`funding: ${accepted.status} ${funded.status} ${funded.text}`);
  const entry = await env.DB.prepare("select id from commission_entries where deal_ref = ? and kind = 'accrued'").bind(routed.refA).first<{ id: string }>();
  return { key: routed.keys.a.live, ref: routed.refA, entryId: entry!.id };
}

/** A live lead routed for a company of its own, and the attribution it holds. */
export async function attributedLead() {
  await twoLenderPanel();
  const partner = await partnerWithKeys();
  const lead = await createLead(partner.live.key);
  const submitted = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner.live.key });
  expect(submitted.body.state).toBe("matched");
  const claim = await inData.prepare("select id from company_claims where lead_id = ? and active = 1").bind(lead.id).first<{ id: string }>();
  return { id: claim!.id, lead, partner };
}

/** The POST operations of the three served documents that declare `idempotency_key_reused`. */
export async function keyedPostsOfTheDocuments() {
  const found: string[] = [];
  for (const api of ["partner", "lender", "admin"] as const) {
    const res = await call("GET", `${BASE[api]}/openapi.json`, api === "admin" ? { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } } : {});
    if (res.status !== 200) throw new Error(`${api} OpenAPI document: ${res.status}`);
    for (const [path, item] of Object.entries<Record<string, { responses?: Record<string, { description?: string }> }>>(res.body.paths)) {
      const post = item.post;
      if (post && /idempotency_key_reused/.test(post.responses?.["422"]?.description ?? "")) found.push(`${api} POST ${path}`);
    }
  }
  return found;
}

/** A case's request with the key (and the operator's token on the operator API). */
export const keyedRequest = (api: ApiName, prepared: KeyedPost, idempotencyKey: string) => ({
  key: prepared.key,
  headers: { "Idempotency-Key": idempotencyKey, ...(api === "admin" ? { Authorization: `Bearer ${ADMIN_TOKEN}` } : {}) },
  body: prepared.body,
  rawBody: prepared.rawBody,
  contentType: prepared.contentType,
});
