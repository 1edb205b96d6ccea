import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import type { Bindings } from "../../src/lib/env";
import { describe, expect, it, vi } from "vitest";
import { runScheduledWork } from "../../src/jobs/scheduled";
import { hubToken } from "../../src/lib/signed-links";
import { LOCAL_DEVELOPMENT_SIGNING_SECRET } from "../../src/lib/signing-secret";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { callWith } from "./app-with-env";

const NO_SECRET = { SIGNING_SECRET: undefined };
const PRODUCTION_WITHOUT_SECRET = { DEPLOYMENT: "production", SIGNING_SECRET: undefined };
/** An operator token as `openssl rand -hex 32` makes it: the suite's fixed one is too short for a deployed environment. */
const STRONG_ADMIN_TOKEN = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");

describe("a local deployment without SIGNING_SECRET (wrangler.toml's DEPLOYMENT=local)", () => {
  it("creates, reads, lists and pages leads and signs hub links with the local-only secret", async () => {
    const { sandbox } = await partnerWithKeys();
    const created = await callWith(NO_SECRET, "POST", "/partner/v1/leads", { key: sandbox.key, body: completeUkLead() });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body.upload_url).toBe(`http://localhost:8787/hub/${id}/${await hubToken(LOCAL_DEVELOPMENT_SIGNING_SECRET, id)}`);
    expect((await callWith(NO_SECRET, "GET", `/partner/v1/leads/${id}`, { key: sandbox.key })).status).toBe(200);
    expectProblem(await callWith(NO_SECRET, "GET", `/partner/v1/leads/${crypto.randomUUID()}`, { key: sandbox.key }), 404, "not_found");

    await callWith(NO_SECRET, "POST", "/partner/v1/leads", { key: sandbox.key, body: completeUkLead() });
    const first = await callWith(NO_SECRET, "GET", "/partner/v1/leads?limit=1", { key: sandbox.key });
    expect(first.status).toBe(200);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await callWith(NO_SECRET, "GET", `/partner/v1/leads?limit=1&cursor=${first.body.next_cursor}`, { key: sandbox.key });
    expect(second.status).toBe(200);
    expect(second.body.leads.map((l: { id: string }) => l.id)).toEqual([id]);

    // The link's token is traded for a session cookie signed with the local-only secret, then the page opens without it.
    const link = await callWith(NO_SECRET, "GET", new URL(created.body.upload_url).pathname);
    expect(link.status).toBe(303);
    const cookie = link.headers.get("Set-Cookie")!.split(";")[0];
    const hub = await callWith(NO_SECRET, "GET", new URL(link.headers.get("Location")!, created.body.upload_url).pathname, { cookie });
    expect(hub.status).toBe(200);
    expect(hub.headers.get("Content-Type")).toContain("text/html");
  });

  it("creates webhook endpoints, whose signing secrets are sealed with the local-only secret", async () => {
    const { sandbox } = await partnerWithKeys();
    const endpoint = await callWith(NO_SECRET, "POST", "/partner/v1/webhooks", { key: sandbox.key, body: { url: "http://127.0.0.1:9/hook", events: ["lead.submitted"] } });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);
  });
});

describe("a production deployment without SIGNING_SECRET", () => {
  it("refuses every request but /health with 503 service_misconfigured naming the secret, writing nothing", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { sandbox } = await partnerWithKeys();
    const before = (await call("GET", "/partner/v1/leads", { key: sandbox.key })).body.leads.length;
    const refused = await callWith(PRODUCTION_WITHOUT_SECRET, "POST", "/partner/v1/leads", { key: sandbox.key, body: completeUkLead() });
    expectProblem(refused, 503, "service_misconfigured");
    expect(refused.body.detail).toContain("SIGNING_SECRET");
    expect((await call("GET", "/partner/v1/leads", { key: sandbox.key })).body.leads.length).toBe(before);
    for (const path of ["/partner/v1/me", "/v1/me", "/admin/v1/organisations", "/docs", "/partner/v1/openapi.json", "/hub/x/y", "/files/x"]) {
      expectProblem(await callWith(PRODUCTION_WITHOUT_SECRET, "GET", path, { key: sandbox.key }), 503, "service_misconfigured");
    }
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^\{"level":"error","event":"service_misconfigured",.*"missing":"SIGNING_SECRET"/));
    errors.mockRestore();
  });

  it("treats a missing or unknown DEPLOYMENT as a real deployment", async () => {
    for (const DEPLOYMENT of [undefined, "staging"]) {
      expectProblem(await callWith({ DEPLOYMENT, SIGNING_SECRET: undefined }, "GET", "/partner/v1/me"), 503, "service_misconfigured");
    }
  });

  it("pauses webhook dispatch in the cron, saying why, instead of failing every minute", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    // Only the work that needs no secret goes on: idempotency and portal-challenge clean-up, the register lookups' safety net, uploads, retention.
    const jobs = await runScheduledWork({ ...env, ...PRODUCTION_WITHOUT_SECRET });
    // The data jobs once per database (DB, then the sandbox's DB_SANDBOX: docs/capacity.md), dispatch in neither.
    expect(Object.keys(jobs).sort()).toEqual(["challenges", "formUses", "idempotency", "idempotency:sandbox", "lookups", "lookups:sandbox", "refusedPosts", "retention", "retention:sandbox", "uploads", "uploads:sandbox"]);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("webhook dispatch is paused"));
    errors.mockRestore();
  });

  it("serves normally once the secret is set", async () => {
    const { sandbox } = await partnerWithKeys();
    const created = await callWith({ DEPLOYMENT: "production", SIGNING_SECRET: "a-real-secret", ADMIN_TOKEN: STRONG_ADMIN_TOKEN }, "POST", "/partner/v1/leads", { key: sandbox.key, body: completeUkLead() });
    expect(created.status).toBe(201);
    expect(created.body.upload_url).toContain(await hubToken("a-real-secret", created.body.id));
  });
});

// Issue 39 item 6: any ADMIN_TOKEN opened the operator API of a deployed environment, however guessable.
describe("a deployed environment's ADMIN_TOKEN: at least 32 random bytes", () => {
  const PRODUCTION = { DEPLOYMENT: "production", SIGNING_SECRET: "a-real-secret" };
  const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

  it.each([
    ["the suite's fixed token", "test-admin-token"],
    ["31 random bytes in hex (62 characters)", STRONG_ADMIN_TOKEN.slice(0, 62)],
    ["31 random bytes in base64url (42 characters)", base64url(crypto.getRandomValues(new Uint8Array(32))).slice(0, 42)],
    ["one character repeated", "a".repeat(80)],
    ["a short block repeated", "0123456789abcdef".repeat(4)],
    ["a passphrase", "correct horse battery staple and a long tail of words"],
  ])("refuses every request but /health with 503 service_misconfigured naming ADMIN_TOKEN: %s", async (_label, token) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { sandbox } = await partnerWithKeys();
    const weak = { ...PRODUCTION, ADMIN_TOKEN: token };
    const before = (await call("GET", "/partner/v1/leads", { key: sandbox.key })).body.leads.length;
    const refused = await callWith(weak, "POST", "/partner/v1/leads", { key: sandbox.key, body: completeUkLead() });
    expectProblem(refused, 503, "service_misconfigured");
    expect(refused.body.detail).toContain("ADMIN_TOKEN");
    expect(refused.text).not.toContain(token);
    expect((await call("GET", "/partner/v1/leads", { key: sandbox.key })).body.leads.length).toBe(before);
    for (const path of ["/admin/v1/organisations", "/admin/v1/openapi.json", "/partner/v1/me", "/v1/me", "/portal/sign-in"]) {
      expectProblem(await callWith(weak, "GET", path, { key: sandbox.key }), 503, "service_misconfigured");
    }
    expect((await callWith(weak, "GET", "/health")).status).toBe(200);
    const line = errors.mock.calls.map(([text]) => String(text)).find((text) => text.includes('"event":"service_misconfigured"'));
    expect(line).toMatch(/"weak":"ADMIN_TOKEN"/);
    expect(line).not.toContain(token);
    errors.mockRestore();
  });

  it.each([
    ["32 random bytes in hex (openssl rand -hex 32)", STRONG_ADMIN_TOKEN],
    ["32 random bytes in base64url (43 characters)", base64url(crypto.getRandomValues(new Uint8Array(32)))],
    ["48 random bytes in base64 (openssl rand -base64 48)", btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(48))))],
  ])("serves with %s, and the operator API takes it", async (_label, token) => {
    const strong = { ...PRODUCTION, ADMIN_TOKEN: token };
    expect((await callWith(strong, "GET", "/partner/v1/openapi.json")).status).toBe(200);
    const request = new Request("http://api.test/admin/v1/organisations", { headers: { Authorization: `Bearer ${token}` } });
    expect((await createApp().fetch(request, { ...env, ...strong } as Bindings, createExecutionContext())).status).toBe(200);
  });

  it("asks nothing of a deployment without ADMIN_TOKEN (its operator API answers 404: test/admin.test.ts), nor of a local one", async () => {
    expect((await callWith({ ...PRODUCTION, ADMIN_TOKEN: undefined }, "GET", "/partner/v1/openapi.json")).status).toBe(200);
    // The suite itself: DEPLOYMENT=local, a local PUBLIC_URL and host, and the fixed token "test-admin-token".
    expect((await callWith({ DEPLOYMENT: "local" }, "GET", "/partner/v1/openapi.json")).status).toBe(200);
    // A local deployment reached on a public host is a deployed one.
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expectProblem(await callWith({ DEPLOYMENT: "local", SIGNING_SECRET: "a-real-secret" }, "GET", "/partner/v1/openapi.json", { host: "https://api.example.com" }), 503, "service_misconfigured");
    errors.mockRestore();
  });
});

describe("DEPLOYMENT=local reached on a public host (a plain `wrangler deploy` by mistake)", () => {
  it("refuses with 503 service_misconfigured instead of signing with the public local-only secret", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { sandbox } = await partnerWithKeys();
    const refused = await callWith({ ...NO_SECRET, DEPLOYMENT: "local" }, "POST", "/partner/v1/leads", { key: sandbox.key, body: completeUkLead(), host: "https://api.example.com" });
    expectProblem(refused, 503, "service_misconfigured");
    expect(refused.body.detail).toContain("SIGNING_SECRET");
    expect((await callWith({ ...NO_SECRET, DEPLOYMENT: "local" }, "GET", "/health", { host: "https://api.example.com" })).status).toBe(200);
    errors.mockRestore();
  });

  it("serves local names: localhost, *.localhost, *.test and loopback addresses", async () => {
    const { sandbox } = await partnerWithKeys();
    for (const host of ["http://localhost:8787", "http://sandbox.localhost", "http://api.test", "http://127.0.0.1:8787", "http://[::1]:8787"]) {
      const me = await callWith({ ...NO_SECRET, DEPLOYMENT: "local" }, "GET", "/partner/v1/me", { key: sandbox.key, host });
      expect(me.status, host).toBe(200);
    }
  });
});
