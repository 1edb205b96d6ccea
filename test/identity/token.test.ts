import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call, ownAddress, SANDBOX } from "../helpers/api";
import { createOrganisation, expectProblem, issueKey, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { callWith } from "../operations/app-with-env";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe("POST /partner/v1/oauth/token", () => {
  it("exchanges a key for a one-hour bearer token, form-encoded", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/oauth/token", {
      rawBody: form({ grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key }),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "partner", environment: "sandbox" });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const me = await call("GET", "/partner/v1/me", { token: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ environment: "sandbox", authenticated_with: "bearer", livemode: false });
  });

  it("accepts JSON and binds the token to the key's environment", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/oauth/token", {
      body: { grant_type: "client_credentials", client_id: live.client_id, client_secret: live.key },
    });
    expect(res.status).toBe(200);
    expect(res.body.environment).toBe("live");
    expectProblem(await call("GET", "/partner/v1/me", { token: res.body.access_token, host: SANDBOX }), 403, "environment_mismatch");
  });

  it("refuses other grant types with 400 unsupported_grant_type", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/oauth/token", {
      body: { grant_type: "password", client_id: sandbox.client_id, client_secret: sandbox.key },
    });
    expectProblem(res, 400, "unsupported_grant_type");
    expect(res.body.error.field).toBe("grant_type");
  });

  it.each([
    ["malformed JSON", "{nope", "application/json"],
    ["a JSON array", "[]", "application/json"],
    ["plain text, not 415: the spec and RFC 6749 make every unreadable token request a 400", "grant_type=client_credentials", "text/plain"],
    ["no body", undefined, undefined],
  ])("answers an unreadable body (%s) with 400 invalid_request", async (_label, rawBody, contentType) => {
    const res = await call("POST", "/partner/v1/oauth/token", { rawBody, contentType });
    expectProblem(res, 400, "invalid_request");
  });

  it.each(["grant_type", "client_id", "client_secret"])("names a missing %s", async (field) => {
    const fields: Record<string, string> = { grant_type: "client_credentials", client_id: "x", client_secret: "y" };
    delete fields[field];
    const res = await call("POST", "/partner/v1/oauth/token", { body: fields });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });

  it("answers bad credentials with 401", async () => {
    const { sandbox, live } = await partnerWithKeys();
    const wrongSecret = sandbox.key.slice(0, -4) + "aaaa";
    for (const [clientId, secret] of [
      [sandbox.client_id, wrongSecret],
      [live.client_id, sandbox.key],
      ["rfs_ptr_sandbox_unknown", "nonsense"],
    ]) {
      const res = await call("POST", "/partner/v1/oauth/token", {
        body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
      });
      expectProblem(res, 401, "unauthorized");
    }
  });

  it("mints tokens for partner secret keys only", async () => {
    const lender = await lenderWithKeys();
    const partner = await createOrganisation("partner");
    const publishable = await issueKey(partner.id, "sandbox", "publishable", ["https://shop.example"]);
    for (const key of [lender.sandbox, publishable]) {
      const res = await call("POST", "/partner/v1/oauth/token", {
        body: { grant_type: "client_credentials", client_id: key.client_id, client_secret: key.key },
      });
      expectProblem(res, 401, "unauthorized");
    }
  });

  it("answers an oversized body with 413 payload_too_large", async () => {
    const res = await call("POST", "/partner/v1/oauth/token", {
      body: { grant_type: "client_credentials", client_id: "a", client_secret: "x".repeat(20_000) },
    });
    expectProblem(res, 413, "payload_too_large");
  });

  it("stops the tokens of a revoked key at once", async () => {
    const { sandbox } = await partnerWithKeys();
    const token = (
      await call("POST", "/partner/v1/oauth/token", {
        body: { grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key },
      })
    ).body.access_token;
    expect((await call("GET", "/partner/v1/me", { token })).status).toBe(200);
    expect((await admin("DELETE", `/keys/${sandbox.client_id}`)).status).toBe(204);
    expectProblem(await call("GET", "/partner/v1/me", { token }), 401, "unauthorized");
    expectProblem(await call("GET", "/partner/v1/me", { key: sandbox.key }), 401, "unauthorized");
  });

  it("limits the exchanges of a correct secret per client_id: past the limit, 429 with the spec's headers", async () => {
    const { sandbox } = await partnerWithKeys();
    const body = { grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key };
    const first = await call("POST", "/partner/v1/oauth/token", { body });
    expect(first.status).toBe(200);
    expect(first.headers.get("RateLimit-Policy")).toBe('"default";q=120;w=60');
    expect(first.headers.get("RateLimit")).toMatch(/^"default";r=119;t=\d+$/);
    // The rest under a limit of 3 (RATE_LIMIT_PER_MINUTE, as the benchmarks change it), so the test records 3 tokens, not 120.
    const limitOf3 = { RATE_LIMIT_PER_MINUTE: "3" };
    expect((await callWith(limitOf3, "POST", "/partner/v1/oauth/token", { body })).status).toBe(200);
    const third = await callWith(limitOf3, "POST", "/partner/v1/oauth/token", { body });
    expect(third.status).toBe(200);
    expect(third.headers.get("RateLimit")).toMatch(/^"default";r=0;/);
    const refused = await callWith(limitOf3, "POST", "/partner/v1/oauth/token", { body });
    expectProblem(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("RateLimit-Policy")).toBe('"default";q=3;w=60');
    expect(refused.headers.get("RateLimit")).toMatch(/^"default";r=0;/);
    // A refused exchange records no token.
    const { results } = await env.DB.prepare("select count(*) as n from access_tokens where key_id = ?").bind(sandbox.client_id.slice("rfs_ptr_sandbox_".length)).all<{ n: number }>();
    expect(results[0].n).toBe(3);
  });

  // Issue 39 item 4: wrong secrets spent the client id's own allowance, so anyone who knew a client id
  // (it is not a secret) could block its real token requests with 121 wrong guesses a minute.
  it("counts wrong secrets against the sender's address, never against the client id's allowance", async () => {
    const { sandbox } = await partnerWithKeys();
    const attacker = ownAddress();
    const wrong = { grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key.slice(0, -4) + "aaaa" };
    const first = await call("POST", "/partner/v1/oauth/token", { body: wrong, headers: attacker });
    expectProblem(first, 401, "unauthorized");
    expect(first.headers.get("RateLimit")).toMatch(/^"default";r=119;/);
    let last = first;
    for (let i = 2; i <= 121; i++) last = await call("POST", "/partner/v1/oauth/token", { body: wrong, headers: attacker });
    expectProblem(last, 429, "rate_limited");
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(last.headers.get("RateLimit-Policy")).toBe('"default";q=120;w=60');
    expect(last.headers.get("RateLimit")).toMatch(/^"default";r=0;/);

    // Another address guessing is answered 401, not 429: the count is the sender's.
    expectProblem(await call("POST", "/partner/v1/oauth/token", { body: wrong, headers: ownAddress() }), 401, "unauthorized");
    // The key's own exchanges keep their whole allowance, from the partner's server and from the attacker's address alike.
    const right = { grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key };
    const partner = await call("POST", "/partner/v1/oauth/token", { body: right, headers: ownAddress() });
    expect(partner.status).toBe(200);
    expect(partner.headers.get("RateLimit")).toMatch(/^"default";r=119;/);
    expect((await call("POST", "/partner/v1/oauth/token", { body: right, headers: attacker })).status).toBe(200);
  }, 60_000);
});
