import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateKey } from "../../src/domain/identity/keys";
import { sha256Hex } from "../../src/lib/crypto";
import { admin, call } from "../helpers/api";
import { createOrganisation, expectProblem, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { portal, signedInMember } from "../helpers/portal";
import { changes, snapshot } from "../helpers/storage-snapshot";
import { completeUkLead, createLead } from "../leads/helpers";
import { consume, dispatch, receiverUrl } from "../webhooks/support/webhooks";
import { hubCall } from "../hub/helpers";

const keyObject = (clientId: string) => env.KEY_AUTHORITY.get(env.KEY_AUTHORITY.idFromName(`key:${clientId}`));

async function tokenFor(key: { key: string; client_id: string }) {
  const res = await call("POST", "/partner/v1/oauth/token", { body: { grant_type: "client_credentials", client_id: key.client_id, client_secret: key.key } });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

describe("the key's Durable Object as the authority for the key", () => {
  it("loads a key it has never seen from D1 on first use (cold start)", async () => {
    // Written straight to D1, as a restore or another deployment would: the object has never heard of it.
    const organisation = await createOrganisation("partner");
    const { keyId, clientId, key } = generateKey("partner", "live");
    await env.DB.prepare("INSERT INTO api_keys (id, client_id, organisation_id, environment, kind, key_hash, allowed_origins, created_at) VALUES (?, ?, ?, 'live', 'partner', ?, '[]', ?)")
      .bind(keyId, clientId, organisation.id, await sha256Hex(key), new Date().toISOString())
      .run();
    const res = await call("GET", "/partner/v1/me", { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organisation: { id: organisation.id }, key: { client_id: clientId }, environment: "live" });
  });

  it("refuses the key and its tokens on the very next request after revocation, with the object warm", async () => {
    const { sandbox } = await partnerWithKeys();
    const token = await tokenFor(sandbox);
    for (let i = 0; i < 3; i++) {
      expect((await call("GET", "/partner/v1/me", { key: sandbox.key })).status).toBe(200);
      expect((await call("GET", "/partner/v1/me", { token })).status).toBe(200);
    }
    expect((await admin("DELETE", `/keys/${sandbox.client_id}`)).status).toBe(204);
    expectProblem(await call("GET", "/partner/v1/me", { token }), 401, "unauthorized");
    expectProblem(await call("GET", "/partner/v1/me", { key: sandbox.key }), 401, "unauthorized");
    // And no new token can be minted from it.
    const minted = await call("POST", "/partner/v1/oauth/token", {
      body: { grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key },
    });
    expectProblem(minted, 401, "unauthorized");
  });

  it("keeps a revocation written to D1 across the object's restart: D1 is the record", async () => {
    const { live } = await partnerWithKeys();
    expect((await call("GET", "/partner/v1/me", { key: live.key })).status).toBe(200);
    expect((await admin("DELETE", `/keys/${live.client_id}`)).status).toBe(204);
    await keyObject(live.client_id).forget(); // what an eviction does to the object's memory
    expectProblem(await call("GET", "/partner/v1/me", { key: live.key }), 401, "unauthorized");
  });

  it("reloads live tokens from D1 after a restart, so a token outlives the object's memory but not the key", async () => {
    const { sandbox } = await partnerWithKeys();
    const token = await tokenFor(sandbox);
    await keyObject(sandbox.client_id).forget();
    expect((await call("GET", "/partner/v1/me", { token })).status).toBe(200);
  });

  it("admits a token only at the key it names", async () => {
    const first = await partnerWithKeys();
    const second = await partnerWithKeys();
    const token = await tokenFor(first.sandbox);
    const secondKeyId = second.sandbox.client_id.slice("rfs_ptr_sandbox_".length);
    const rerouted = token.replace(/^rfs_at_sandbox_[a-z0-9]{16}_/, `rfs_at_sandbox_${secondKeyId}_`);
    expect((await call("GET", "/partner/v1/me", { token: rerouted })).status).toBe(401);
    // The same token with another environment names another object, which holds no such key.
    expect((await call("GET", "/partner/v1/me", { token: token.replace("rfs_at_sandbox_", "rfs_at_live_") })).status).toBe(401);
    expect((await call("GET", "/partner/v1/me", { token })).status).toBe(200);
  });

  it("answers for its own key only: a client id that does not own the key id finds nothing", async () => {
    const { live } = await partnerWithKeys();
    const keyId = live.client_id.slice("rfs_ptr_live_".length);
    const admission = await keyObject(live.client_id).authenticate(
      { keyId, clientId: `rfs_ptr_sandbox_${keyId}` },
      { keyHash: await sha256Hex(live.key) },
      { limit: 120, windowSeconds: 60 },
    );
    expect(admission).toEqual({ admitted: false });
    const own = await keyObject(live.client_id).authenticate({ keyId, clientId: live.client_id }, { keyHash: await sha256Hex(live.key) }, { limit: 120, windowSeconds: 60 });
    expect(own).toMatchObject({ admitted: true, key: { clientId: live.client_id, kind: "partner", environment: "live" } });
    // The hash never leaves the object.
    expect(JSON.stringify(own)).not.toContain(await sha256Hex(live.key));
  });
});

/** The primary's bookmark now: a write made after this moment is at a later one. A sandbox key writes to DB_SANDBOX. */
async function primaryBookmark(db: D1Database = env.DB) {
  const session = db.withSession("first-primary");
  await session.prepare("select 1").first();
  return session.getBookmark()!;
}

const OLDEST_BOOKMARK = `00000000-00000000-00000000-${"0".repeat(32)}`;

describe("read replicas: the key reads its own writes (D1 sessions, the key's bookmark)", () => {
  it("hands the write's bookmark to the key's object before answering, so the key's next read sees the write", async () => {
    const { sandbox } = await partnerWithKeys();
    for (let round = 0; round < 10; round++) {
      const before = await primaryBookmark(env.DB_SANDBOX);
      const created = await call("POST", "/partner/v1/leads", { key: sandbox.key, body: { country: "GB", business: { name: `Bookmark ${round} Ltd` } } });
      expect(created.status).toBe(201);
      // Reporting an older bookmark moves nothing and answers what the object holds: later than before the write,
      // and of the sandbox's database, the one the key's environment writes to (kept under its own name).
      const held = await keyObject(sandbox.client_id).rememberBookmark(OLDEST_BOOKMARK, "sandbox");
      expect(held! > before).toBe(true);
      const read = await call("GET", `/partner/v1/leads/${created.body.id}`, { key: sandbox.key });
      expect(read.status).toBe(200);
      expect(read.body.business.name).toBe(`Bookmark ${round} Ltd`);
    }
  });

  it("keeps a bookmark that only moves forward, whatever order concurrent requests report in", async () => {
    const { sandbox } = await partnerWithKeys();
    const object = keyObject(sandbox.client_id);
    const at = (n: number) => `00000000-${n.toString(16).padStart(8, "0")}-00000000-${"0".repeat(32)}`;
    expect(await object.rememberBookmark(at(5))).toBe(at(5));
    expect(await object.rememberBookmark(at(3))).toBe(at(5));
    await Promise.all([9, 7, 12, 4, 11].map((n) => object.rememberBookmark(at(n))));
    expect(await object.rememberBookmark(at(1))).toBe(at(12));
    // A malformed report is ignored rather than kept.
    expect(await object.rememberBookmark("not-a-bookmark")).toBe(at(12));
  });

  it("sends no bookmark for a request that wrote nothing: one object call per read", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/leads", { key: sandbox.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("Server-Timing")).toContain('do;desc="1 call"');
    expect(await keyObject(sandbox.client_id).rememberBookmark(OLDEST_BOOKMARK, "sandbox")).toBe(OLDEST_BOOKMARK);
  });
});

describe("read replicas without a key: the portal's and hub's bookmark cookie", () => {
  it("a portal page that wrote sets the door's bookmark cookie; the next page reads from there, and a forged cookie is ignored", async () => {
    const org = await createOrganisation("lender");
    const session = await signedInMember(org.id);
    const before = await primaryBookmark();
    const res = await portal("POST", "/environment", { session, form: { environment: "live" } });
    expect(res.status).toBe(303);
    const cookie = /rfs_bookmark=([^;]+);([^,]*)/.exec(res.headers.get("Set-Cookie") ?? "");
    expect(cookie).not.toBeNull();
    expect(cookie![1]! > before).toBe(true);
    expect(cookie![2]).toMatch(/Path=\/portal/);
    expect(cookie![2]).toMatch(/HttpOnly/);
    const next = await portal("GET", "/", { session: { ...session, cookie: `${session.cookie}; rfs_bookmark=${cookie![1]}` } });
    expect(next.status).toBe(200);
    expect(next.text).toContain("live environment");
    expect(next.headers.get("Set-Cookie") ?? "").not.toContain("rfs_bookmark");
    const forged = await portal("GET", "/", { session: { ...session, cookie: `${session.cookie}; rfs_bookmark=zz'--` } });
    expect(forged.status).toBe(200);
    expect(forged.text).toContain("live environment");
  });
});

describe("the sandbox in its own database (issue 40 item 3): the credential's environment chooses", () => {
  /** Rows naming `id` in each data table of one database: a lead's, a deal's, an organisation's. */
  async function rowsNaming(db: D1Database, id: string) {
    const counts: Record<string, number> = {};
    for (const [table, column] of [
      ["leads", "organisation_id"],
      ["deals", "lender_organisation_id"],
      ["events", "organisation_id"],
      ["webhook_endpoints", "organisation_id"],
      ["webhook_deliveries", "organisation_id"],
    ] as const) {
      counts[table] = (await db.prepare(`select count(*) n from ${table} where ${column} = ?`).bind(id).first<{ n: number }>())!.n;
    }
    return counts;
  }
  const none = { leads: 0, deals: 0, events: 0, webhook_endpoints: 0, webhook_deliveries: 0 };
  /** A database's size in bytes, as D1 reports it after a statement (`meta.size_after`): what a sandbox flood must not move in DB. */
  const bytesOf = async (db: D1Database) => (await db.prepare("select 1").run()).meta.size_after;

  it("a sandbox key's lead, deal, events and deliveries are in DB_SANDBOX and not one row in DB; a live key's the reverse", async () => {
    const partner = await partnerWithKeys();
    const lender = await lenderWithKeys();
    for (const environment of ["sandbox", "live"] as const) {
      const hook = await call("POST", "/partner/v1/webhooks", { key: partner[environment].key, body: { url: `${receiverUrl()}/${environment}` } });
      expect(hook.status).toBe(201);
      const lead = await createLead(partner[environment].key);
      expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner[environment].key })).status).toBe(200);
    }
    expect((await call("POST", "/v1/test/deals", { key: lender.sandbox.key })).status).toBe(201);
    const { deliveryIds } = await dispatch();
    expect(deliveryIds.length).toBeGreaterThan(0);

    const inSandbox = await rowsNaming(env.DB_SANDBOX, partner.organisation.id);
    expect(inSandbox.leads).toBe(1);
    expect(inSandbox.events).toBeGreaterThan(0);
    expect(inSandbox.webhook_endpoints).toBe(1);
    expect(inSandbox.webhook_deliveries).toBe(inSandbox.events);
    const inLive = await rowsNaming(env.DB, partner.organisation.id);
    expect(inLive).toMatchObject({ leads: 1, webhook_endpoints: 1 });
    expect(inLive.events).toBeGreaterThan(0);
    // Each environment's rows in its own database only: the organisation's sandbox lead is not in DB, nor the live one in DB_SANDBOX.
    const sandboxLeads = await env.DB_SANDBOX.prepare("select id from leads where organisation_id = ?").bind(partner.organisation.id).all<{ id: string }>();
    const liveLeads = await env.DB.prepare("select id, environment from leads where organisation_id = ?").bind(partner.organisation.id).all<{ id: string; environment: string }>();
    expect(liveLeads.results.map((l) => l.environment)).toEqual(["live"]);
    expect(sandboxLeads.results.map((l) => l.id)).not.toContain(liveLeads.results[0]!.id);
    expect((await env.DB.prepare("select count(*) n from events where organisation_id = ? and environment = 'sandbox'").bind(partner.organisation.id).first<{ n: number }>())!.n).toBe(0);
    expect((await env.DB_SANDBOX.prepare("select count(*) n from events where organisation_id = ? and environment = 'live'").bind(partner.organisation.id).first<{ n: number }>())!.n).toBe(0);
    // The lender's sandbox test deal: in DB_SANDBOX, nothing of it in DB.
    expect((await rowsNaming(env.DB_SANDBOX, lender.organisation.id)).deals).toBe(1);
    expect(await rowsNaming(env.DB, lender.organisation.id)).toEqual(none);
    // The control rows stay in DB: the organisations and their keys, none in the sandbox's database.
    expect((await env.DB_SANDBOX.prepare("select count(*) n from organisations").first<{ n: number }>())!.n).toBe(0);
    expect((await env.DB_SANDBOX.prepare("select count(*) n from api_keys").first<{ n: number }>())!.n).toBe(0);

    // Each delivery is attempted from its own database: the sandbox's messages carry `environment`, the live ones
    // go without it, as a message sent before the sandbox had its own database, and are read from DB.
    await consume(deliveryIds);
    const settled = async (db: D1Database) =>
      (await db.prepare("select count(*) n from webhook_deliveries where organisation_id = ? and attempt_count > 0").bind(partner.organisation.id).first<{ n: number }>())!.n;
    expect(await settled(env.DB_SANDBOX)).toBe(inSandbox.webhook_deliveries);
    expect(await settled(env.DB)).toBe(inLive.webhook_deliveries);

    // Cross-environment reads stay 404: the live key does not see the sandbox lead, though both are the organisation's.
    expectProblem(await call("GET", `/partner/v1/leads/${sandboxLeads.results[0]!.id}`, { key: partner.live.key }), 404, "not_found");
  });

  it("a sandbox flood of 30 leads leaves DB's size and every one of its rows where they were", async () => {
    const { sandbox } = await partnerWithKeys();
    // Warm: the key's first request is behind us, so nothing the flood does is a first-use write elsewhere.
    await createLead(sandbox.key);
    const before = await snapshot();
    const bytesBefore = await bytesOf(env.DB);
    const sandboxBytesBefore = await bytesOf(env.DB_SANDBOX);
    for (let i = 0; i < 30; i++) await createLead(sandbox.key, { ...completeUkLead(), partner_reference: `flood-${i}` });
    const after = await snapshot();
    const changed = [...changes(before, after).keys()];
    expect(changed.filter((table) => !table.startsWith("sandbox:"))).toEqual([]);
    expect(changed).toContain("sandbox:leads");
    expect(await bytesOf(env.DB)).toBe(bytesBefore);
    expect(await bytesOf(env.DB_SANDBOX)).toBeGreaterThan(sandboxBytesBefore);
  });

  it("the portal in sandbox reads the sandbox's database: a sandbox lead is on its page, and its live switch shows the live one", async () => {
    const { organisation, sandbox, live } = await partnerWithKeys();
    const sandboxLead = await createLead(sandbox.key, { ...completeUkLead(), partner_reference: "in-the-sandbox-db" });
    const liveLead = await createLead(live.key, { ...completeUkLead(), partner_reference: "in-the-live-db" });
    const session = await signedInMember(organisation.id);
    const page = await portal("GET", "/leads", { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain(sandboxLead.reference);
    expect(page.text).not.toContain(liveLead.reference);
    expect(await env.DB.prepare("select count(*) n from leads where id = ?").bind(sandboxLead.id).first<{ n: number }>()).toEqual({ n: 0 });
    expect((await portal("POST", "/environment", { session, form: { environment: "live" } })).status).toBe(303);
    const livePage = await portal("GET", "/leads", { session });
    expect(livePage.text).toContain(liveLead.reference);
    expect(livePage.text).not.toContain(sandboxLead.reference);
  });

  it("the hub of a sandbox lead reads the sandbox's database, by its link", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, completeUkLead());
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    const hub = new URL(read.body.upload_url).pathname;
    expect(await env.DB.prepare("select count(*) n from hub_links where lead_id = ?").bind(lead.id).first<{ n: number }>()).toEqual({ n: 0 });
    const page = await hubCall("GET", hub);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Widgets Ltd");
    expect(page.text).toContain(lead.reference);
  });
});
