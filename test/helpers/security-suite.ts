import { env } from "cloudflare:workers";
import { forgetKey } from "../../src/services/identity/key-authority";
import { testDeps } from "./deps";
import { describe, expect, it } from "vitest";
import { admin, call, SANDBOX, type CallOptions } from "./api";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "./seed";
import { sha256Hex } from "../../src/lib/crypto";
import { receiverBucket } from "../webhooks/support/webhooks";

/**
 * One security suite for every authenticated operation the OpenAPI documents
 * declare. It reads the documents at run time, so an operation is covered the
 * moment its route is declared; an operation with path ids and no entry in
 * CROSS_ORGANISATION below fails the suite until someone adds one.
 */

export type ApiName = "partner" | "lender";

interface Operation {
  api: ApiName;
  method: string;
  /** Path as declared, e.g. `/leads/{id}`. */
  path: string;
}

const BASE: Record<ApiName, string> = { partner: "/partner/v1", lender: "/v1" };

const PATH_ID = /\{[^}]+\}/;

async function authenticatedOperations(api: ApiName): Promise<Operation[]> {
  const res = await call("GET", `${BASE[api]}/openapi.json`);
  if (res.status !== 200) throw new Error(`${api} OpenAPI document: ${res.status}`);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, { security?: unknown[] }>>(res.body.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.security && op.security.length > 0) operations.push({ api, method: method.toUpperCase(), path });
    }
  }
  return operations;
}

/** Any id: the credential is refused before an id is looked up. */
const anyIds = (path: string) => path.replace(/\{[^}]+\}/g, "x_unknown");

const label = (op: Operation) => `${op.api} ${op.method} ${op.path}`;

/**
 * Each failed attempt counts against the client address; a fresh address per
 * request keeps the suite's hundreds of refusals from tripping that limit.
 */
const freshAddress = () => ({ "CF-Connecting-IP": `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}` });

async function attempt(op: Operation, options: CallOptions, path = anyIds(op.path)) {
  return call(op.method, `${BASE[op.api]}${path}`, { ...options, headers: { ...freshAddress(), ...options.headers } });
}

/** Runs `check` on every operation and reports every breach at once. */
async function everyOperation(operations: Operation[], check: (op: Operation) => Promise<string | null>) {
  const breaches: string[] = [];
  for (const op of operations) {
    const breach = await check(op);
    if (breach) breaches.push(`${label(op)}: ${breach}`);
  }
  expect(breaches).toEqual([]);
}

function refusedWith(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  try {
    expectProblem(res, status, code);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

async function mintToken(clientId: string, secret: string) {
  const res = await call("POST", "/partner/v1/oauth/token", { body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret } });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
  return res.body.access_token as string;
}

/** A token minted through POST /oauth/token whose row is then dated an hour in the past. */
async function expiredToken(clientId: string, secret: string) {
  const token = await mintToken(clientId, secret);
  // The token works until its row says it has expired: the refusal below is the expiry's.
  if ((await call("GET", "/partner/v1/me", { token })).status !== 200) throw new Error("expired token: the fresh token was refused");
  const past = Math.floor(Date.now() / 1000) - 3600;
  const { meta } = await env.DB.prepare("update access_tokens set expires_at = ? where token_hash = ?").bind(past, await sha256Hex(token)).run();
  if (meta.changes !== 1) throw new Error("expired token: token row not found");
  // The key's Durable Object holds its tokens' expiries (docs/architecture.md): it reloads them from D1.
  await forgetKey(testDeps(), clientId);
  return token;
}

interface Owned {
  partner: { sandboxKey: string; leadId: string; webhookId: string };
  lender: { sandboxKey: string; dealRef: string; webhookId: string };
}

interface CrossOrganisationFixture {
  /** Set when the path id names shared reference data, not something an organisation owns; says why. */
  notOwned?: string;
  /** The concrete path, with organisation A's ids. */
  path?: (owned: Owned) => string;
  /** A valid body, so the refusal tested is the lookup and not validation. */
  body?: unknown;
  rawBody?: () => BodyInit;
  contentType?: string;
}

/** Ids no organisation has: the parent is organisation A's, so the lookup of the parent must already refuse. */
const NO_CHILD = { document: "doc_nothing", offer: "off_nothing", delivery: "whd_nothing", request: "req_nothing" };

const webhookFixtures = (api: ApiName): Record<string, CrossOrganisationFixture> => ({
  [`${api} GET /webhooks/{id}`]: { path: (o) => `/webhooks/${o[api].webhookId}` },
  [`${api} PATCH /webhooks/{id}`]: { path: (o) => `/webhooks/${o[api].webhookId}`, body: { active: false } },
  [`${api} DELETE /webhooks/{id}`]: { path: (o) => `/webhooks/${o[api].webhookId}` },
  [`${api} POST /webhooks/{id}/rotate-secret`]: { path: (o) => `/webhooks/${o[api].webhookId}/rotate-secret` },
  [`${api} POST /webhooks/{id}/test`]: { path: (o) => `/webhooks/${o[api].webhookId}/test` },
  [`${api} GET /webhooks/{id}/deliveries`]: { path: (o) => `/webhooks/${o[api].webhookId}/deliveries` },
  [`${api} POST /webhooks/{id}/deliveries/{delivery_id}/retry`]: {
    path: (o) => `/webhooks/${o[api].webhookId}/deliveries/${NO_CHILD.delivery}/retry`,
  },
});

const pdf = () => new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

/** Every operation with ids in its path, keyed `api METHOD path`. */
export const CROSS_ORGANISATION: Record<string, CrossOrganisationFixture> = {
  "partner GET /enums/{name}": { notOwned: "an enum name is reference data every partner reads alike" },
  "partner GET /leads/{id}": { path: (o) => `/leads/${o.partner.leadId}` },
  "partner PATCH /leads/{id}": { path: (o) => `/leads/${o.partner.leadId}`, body: { partner_reference: "other" } },
  "partner PUT /leads/{id}/significant-persons": { path: (o) => `/leads/${o.partner.leadId}/significant-persons`, body: { significant_persons: [] } },
  "partner POST /leads/{id}/submit": { path: (o) => `/leads/${o.partner.leadId}/submit` },
  "partner POST /leads/{id}/renewals": { path: (o) => `/leads/${o.partner.leadId}/renewals` },
  "partner POST /leads/{id}/hub-link": { path: (o) => `/leads/${o.partner.leadId}/hub-link` },
  "partner POST /leads/{id}/documents": {
    path: (o) => `/leads/${o.partner.leadId}/documents`,
    rawBody: () => {
      const form = new FormData();
      form.append("document_type", "bank_statements");
      form.append("file", new File([pdf()], "statement.pdf", { type: "application/pdf" }));
      return form;
    },
  },
  "partner GET /leads/{id}/documents": { path: (o) => `/leads/${o.partner.leadId}/documents` },
  "partner GET /leads/{id}/documents/{document_id}": { path: (o) => `/leads/${o.partner.leadId}/documents/${NO_CHILD.document}` },
  "partner DELETE /leads/{id}/documents/{document_id}": { path: (o) => `/leads/${o.partner.leadId}/documents/${NO_CHILD.document}` },
  "partner GET /leads/{id}/offers": { path: (o) => `/leads/${o.partner.leadId}/offers` },
  "partner POST /leads/{id}/offers/{offerId}/acceptance": { path: (o) => `/leads/${o.partner.leadId}/offers/${NO_CHILD.offer}/acceptance` },
  "partner POST /leads/{id}/offers/{offerId}/decline": { path: (o) => `/leads/${o.partner.leadId}/offers/${NO_CHILD.offer}/decline`, body: { reason_code: "found_elsewhere" } },
  "partner POST /leads/{id}/application-link": { path: (o) => `/leads/${o.partner.leadId}/application-link`, body: {} },
  "partner GET /leads/{id}/application-link": { path: (o) => `/leads/${o.partner.leadId}/application-link` },
  "partner DELETE /leads/{id}/application-link": { path: (o) => `/leads/${o.partner.leadId}/application-link` },
  "partner GET /consent-texts/{version}": { notOwned: "a consent text version is reference data every partner reads alike" },
  "partner GET /commissions/statements/{month}": { notOwned: "a month names no record: the statement is always the caller's own, scoped in SQL" },
  "partner POST /sandbox/leads/{id}/simulate": { path: (o) => `/sandbox/leads/${o.partner.leadId}/simulate`, body: { event: "offers" } },
  ...webhookFixtures("partner"),
  "lender GET /deals/{ref}": { path: (o) => `/deals/${o.lender.dealRef}` },
  "lender POST /deals/{ref}/status": { path: (o) => `/deals/${o.lender.dealRef}/status`, body: { status: "declined", reason: "other" } },
  "lender POST /deals/{ref}/repayment-outcome": { path: (o) => `/deals/${o.lender.dealRef}/repayment-outcome`, body: { outcome: "settled_early" } },
  "lender GET /deals/{ref}/offers": { path: (o) => `/deals/${o.lender.dealRef}/offers` },
  "lender POST /deals/{ref}/offers": {
    path: (o) => `/deals/${o.lender.dealRef}/offers`,
    body: {
      maturity: "indicative",
      amount: 35_000,
      kind: "business_loan",
      annual_rate_pct: 11.5,
      term_months: 24,
      fees: 800,
      total_repayment: 45_900,
      expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    },
  },
  "lender GET /deals/{ref}/messages": { path: (o) => `/deals/${o.lender.dealRef}/messages` },
  "lender POST /deals/{ref}/messages": { path: (o) => `/deals/${o.lender.dealRef}/messages`, body: { body: "Hello" } },
  "lender GET /deals/{ref}/completion": { path: (o) => `/deals/${o.lender.dealRef}/completion` },
  "lender PUT /deals/{ref}/agreement": { path: (o) => `/deals/${o.lender.dealRef}/agreement`, rawBody: pdf, contentType: "application/pdf" },
  "lender POST /deals/{ref}/requests": { path: (o) => `/deals/${o.lender.dealRef}/requests`, body: { item_type: "bank_statements_6m" } },
  "lender GET /deals/{ref}/requests": { path: (o) => `/deals/${o.lender.dealRef}/requests` },
  "lender GET /deals/{ref}/requests/{id}/files": { path: (o) => `/deals/${o.lender.dealRef}/requests/${NO_CHILD.request}/files` },
  "lender POST /deals/{ref}/requests/{id}/waive": { path: (o) => `/deals/${o.lender.dealRef}/requests/${NO_CHILD.request}/waive` },
  "lender GET /deals/{ref}/documents": { path: (o) => `/deals/${o.lender.dealRef}/documents` },
  "lender DELETE /test/deals/{ref}": { path: (o) => `/test/deals/${o.lender.dealRef}` },
  "lender POST /test/deals/{ref}/simulate": { path: (o) => `/test/deals/${o.lender.dealRef}/simulate`, body: { event: "message.created" } },
  ...webhookFixtures("lender"),
};

async function webhookOf(api: ApiName, key: string) {
  const url = receiverBucket().url();
  const res = await call("POST", `${BASE[api]}/webhooks`, { key, body: { url } });
  if (res.status !== 201) throw new Error(`webhook: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** Organisation A's resources, one of each kind a path id names. */
async function ownedResources(): Promise<Owned> {
  const partner = await partnerWithKeys();
  const lender = await lenderWithKeys();
  const lead = await call("POST", "/partner/v1/leads", { key: partner.sandbox.key, body: { country: "GB" } });
  if (lead.status !== 201) throw new Error(`lead: ${lead.status} ${lead.text}`);
  const deal = await call("POST", "/v1/test/deals", { key: lender.sandbox.key });
  if (deal.status !== 201) throw new Error(`test deal: ${deal.status} ${deal.text}`);
  return {
    partner: { sandboxKey: partner.sandbox.key, leadId: lead.body.id, webhookId: await webhookOf("partner", partner.sandbox.key) },
    lender: { sandboxKey: lender.sandbox.key, dealRef: deal.body.ref, webhookId: await webhookOf("lender", lender.sandbox.key) },
  };
}

/**
 * The suite's two halves: `credentials`, the 401s (no, malformed, revoked or expired credentials, a path id
 * spelled like a public path), and `keys`, a valid key used where it does not belong (the other API's key, a
 * live key on the sandbox host, another organisation's ids). Each API and half is a file of its own
 * (test/security.test.ts and test/security.*.test.ts), so the two workers share the walk (docs/testing.md).
 */
export type SecurityPart = "credentials" | "keys";

/** Declares the suite for one API and the halves named; call once from a test file. */
export function describeSecuritySuite(api: ApiName, parts: SecurityPart[] = ["credentials", "keys"]) {
  describe(`every authenticated operation of the ${api} API`, () => {
    const other: ApiName = api === "partner" ? "lender" : "partner";
    const withKeys = api === "partner" ? partnerWithKeys : lenderWithKeys;
    const otherWithKeys = api === "partner" ? lenderWithKeys : partnerWithKeys;

    if (parts.includes("credentials")) describeCredentials(api, withKeys);
    if (parts.includes("keys")) describeKeys(api, other, withKeys, otherWithKeys);
  });
}

type WithKeys = typeof partnerWithKeys;

function describeCredentials(api: ApiName, withKeys: WithKeys) {
  it("is declared in the OpenAPI document (the suite has something to walk)", async () => {
    expect((await authenticatedOperations(api)).length).toBeGreaterThan(5);
  });

  it("answers 401 unauthorized without credentials", async () => {
    await everyOperation(await authenticatedOperations(api), async (op) => refusedWith(await attempt(op, {}), 401, "unauthorized"));
  });

  // Issue 21 item 3 (authentication skipped by path suffix): a path id spelled like a public path is still an id.
  it("answers 401 unauthorized when a path id is spelled like a public path (openapi.json, oauth/token)", async () => {
    const withIds = (await authenticatedOperations(api)).filter((op) => PATH_ID.test(op.path));
    expect(withIds.length).toBeGreaterThan(5);
    await everyOperation(withIds, async (op) => {
      for (const id of ["openapi.json", "oauth/token"]) {
        const breach = refusedWith(await attempt(op, {}, op.path.replace(/\{[^}]+\}/g, id)), 401, "unauthorized");
        if (breach) return `${id}: ${breach}`;
      }
      return null;
    });
  });

  it("answers 401 unauthorized to a malformed key", async () => {
    const { sandbox } = await withKeys();
    const malformed = ["not-a-key", `${sandbox.key}x`, sandbox.key.slice(0, -4)];
    await everyOperation(await authenticatedOperations(api), async (op) => {
      for (const key of malformed) {
        const breach = refusedWith(await attempt(op, { key }), 401, "unauthorized");
        if (breach) return `${key.slice(0, 12)}…: ${breach}`;
      }
      return null;
    });
  });

  it("answers 401 unauthorized to a revoked key", async () => {
    const { sandbox } = await withKeys();
    expect((await admin("DELETE", `/keys/${sandbox.client_id}`)).status).toBe(204);
    await everyOperation(await authenticatedOperations(api), async (op) => refusedWith(await attempt(op, { key: sandbox.key }), 401, "unauthorized"));
  });

  if (api === "partner") {
    it("answers 401 unauthorized to an expired bearer token and a malformed one", async () => {
      const { sandbox } = await withKeys();
      const token = await expiredToken(sandbox.client_id, sandbox.key);
      await everyOperation(await authenticatedOperations(api), async (op) => {
        for (const t of [token, "not-a-token"]) {
          const breach = refusedWith(await attempt(op, { token: t }), 401, "unauthorized");
          if (breach) return breach;
        }
        return null;
      });
    });
  }

}

function describeKeys(api: ApiName, other: ApiName, withKeys: WithKeys, otherWithKeys: WithKeys) {
  // Today the other API's key is recognised, then refused as the wrong kind of key (403).
  it(`answers 403 wrong_key_type to a ${other} key`, async () => {
    const { sandbox } = await otherWithKeys();
    await everyOperation(await authenticatedOperations(api), async (op) => refusedWith(await attempt(op, { key: sandbox.key }), 403, "wrong_key_type"));
  });

  it("answers 403 environment_mismatch to a live key on the sandbox host", async () => {
    const { live } = await withKeys();
    await everyOperation(await authenticatedOperations(api), async (op) =>
      refusedWith(await attempt(op, { key: live.key, host: SANDBOX }), 403, "environment_mismatch"),
    );
  });

  it("answers 404 not_found (never 403) to another organisation's ids, and has a fixture for every operation with path ids", async () => {
    const owned = await ownedResources();
    const { sandbox: intruder } = await withKeys();
    const withIds = (await authenticatedOperations(api)).filter((op) => PATH_ID.test(op.path));
    expect(withIds.length).toBeGreaterThan(0);
    await everyOperation(withIds, async (op) => {
      const fixture = CROSS_ORGANISATION[label(op)];
      if (!fixture) return "no cross-organisation fixture: add one to CROSS_ORGANISATION in test/helpers/security-suite.ts";
      if (fixture.notOwned) return null;
      if (!fixture.path) return "a fixture needs a path or a notOwned reason";
      const res = await attempt(
        op,
        { key: intruder.key, body: fixture.body, rawBody: fixture.rawBody?.(), contentType: fixture.contentType },
        fixture.path(owned),
      );
      return refusedWith(res, 404, "not_found");
    });
  });
}
