// The SDK's partner client against the service in workerd: the key is exchanged for a bearer token,
// the token is reused until shortly before expiry, and a 401 on a cached token refreshes it once.
import { forgetKey } from "../../src/services/identity/key-authority";
import { testDeps } from "../helpers/deps";
import { createPartnerClient, createTokenProvider, TokenExchangeError } from "../../sdk/src/index.js";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, PRODUCTION } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";

/** The service's own fetch handler, recording what the SDK sends. */
function recordingFetch() {
  const sent: { path: string; authorization: string | null; apiKey: string | null }[] = [];
  const fetch = (request: Request) => {
    const url = new URL(request.url);
    sent.push({ path: url.pathname, authorization: request.headers.get("Authorization"), apiKey: request.headers.get("X-API-Key") });
    return exports.default.fetch(request);
  };
  return { sent, fetch, exchanges: () => sent.filter((s) => s.path === "/partner/v1/oauth/token").length };
}

describe("createPartnerClient", () => {
  it("exchanges the key once, sends only the bearer token, and reuses it", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const { sent, fetch, exchanges } = recordingFetch();
    const client = createPartnerClient({ baseUrl: PRODUCTION, apiKey: sandbox.key, fetch });
    const [a, b] = await Promise.all([client.GET("/me"), client.GET("/me")]);
    expect(a.data?.organisation.id).toBe(organisation.id);
    expect(b.data?.organisation.id).toBe(organisation.id);
    await client.GET("/leads");
    expect(exchanges()).toBe(1);
    const calls = sent.filter((s) => s.path !== "/partner/v1/oauth/token");
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.authorization).toMatch(/^Bearer \S+$/);
      expect(call.apiKey).toBeNull();
    }
  });

  it("refreshes a token the service no longer accepts and retries the request once, body included", async () => {
    const { sandbox } = await partnerWithKeys();
    const { fetch, exchanges } = recordingFetch();
    const client = createPartnerClient({ baseUrl: PRODUCTION, apiKey: sandbox.key, fetch });
    expect((await client.GET("/me")).response.status).toBe(200);
    // The server side of an expiry the client's clock did not see.
    await env.DB.prepare("UPDATE access_tokens SET expires_at = 0 WHERE key_id IN (SELECT id FROM api_keys WHERE client_id = ?)").bind(sandbox.client_id).run();
    // The key's Durable Object holds its tokens' expiries: it reloads them from D1.
    await forgetKey(testDeps(), sandbox.client_id);

    const created = await client.POST("/leads", { body: { country: "GB", business: { name: "Refresh Ltd" } } });
    expect(created.response.status).toBe(201);
    expect(created.data?.business.name).toBe("Refresh Ltd");
    expect(exchanges()).toBe(2);
  });

  it("exchanges again shortly before the token expires", async () => {
    const { sandbox } = await partnerWithKeys();
    const { fetch, exchanges } = recordingFetch();
    let clock = Date.now();
    const provider = createTokenProvider({ baseUrl: PRODUCTION, apiKey: sandbox.key, fetch, now: () => clock });
    const first = await provider.token();
    clock += (3600 - 61) * 1000;
    expect(await provider.token()).toBe(first);
    clock += 2000; // inside the 60-second margin
    const second = await provider.token();
    expect(second).not.toBe(first);
    expect(exchanges()).toBe(2);
  });

  it("answers a 401 once and surfaces a refused exchange as TokenExchangeError", async () => {
    const { sandbox } = await partnerWithKeys();
    const { fetch, exchanges } = recordingFetch();
    const client = createPartnerClient({ baseUrl: PRODUCTION, apiKey: sandbox.key, fetch });
    expect((await client.GET("/me")).response.status).toBe(200);
    expect((await admin("DELETE", `/keys/${sandbox.client_id}`)).status).toBe(204);

    const error = await client.GET("/me").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TokenExchangeError);
    expect(error).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } });
    expect(exchanges()).toBe(2);
  });
});
