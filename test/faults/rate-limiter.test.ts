/**
 * An unreachable rate-limit Durable Object: the request cannot be counted, so
 * it is refused with 503 `service_unavailable` and a `Retry-After`, as
 * problem+json. Never a 500, and never a pass without a count.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { LIMITER_UNAVAILABLE_RETRY_SECONDS } from "../../src/middleware/rate-limit";
import { call } from "../helpers/api";
import { callWithEnv, faultyEnv } from "../helpers/faults";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { changes, changeShape, snapshot } from "../helpers/storage-snapshot";
import { completeUkLead } from "../leads/helpers";

const unreachable = () => faultyEnv({ durableObject: "every" });

function expectUnavailable(res: { status: number; headers: Headers; body: any }) {
  expectProblem(res, 503, "service_unavailable");
  expect(res.headers.get("Retry-After")).toBe(String(LIMITER_UNAVAILABLE_RETRY_SECONDS));
  expect(res.headers.get("Content-Type")).toMatch(/^application\/problem\+json/);
  // No verdict was reached, so no window is reported.
  expect(res.headers.get("RateLimit")).toBeNull();
}

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("an unreachable rate limiter", () => {
  it("answers 503 with Retry-After on a partner read, and the same key works once it is back", async () => {
    const { live } = await partnerWithKeys();
    const faulty = unreachable();
    const res = await callWithEnv(faulty.env, "GET", "/partner/v1/me", { key: live.key });
    expectUnavailable(res);
    // The key's own object authenticates and counts in one call (docs/architecture.md); it is the call that failed first.
    expect(faulty.switches.durableObject.failed[0]).toEqual({ call: 1, operation: "authenticate()" });
    const back = await call("GET", "/partner/v1/me", { key: live.key });
    expect(back.status).toBe(200);
    expect(back.headers.get("RateLimit")).toMatch(/^"default";r=119;/);
  });

  it("lets no write through: the lead is not created", async () => {
    const { live } = await partnerWithKeys();
    const before = await snapshot();
    expectUnavailable(await callWithEnv(unreachable().env, "POST", "/partner/v1/leads", { key: live.key, body: completeUkLead() }));
    expect(changeShape(changes(before, await snapshot()))).toEqual({});
  });

  it("answers the same on the lender API, with a bearer token, and on the token endpoint", async () => {
    const lender = await lenderWithKeys();
    expectUnavailable(await callWithEnv(unreachable().env, "GET", "/v1/deals", { key: lender.live.key }));

    const partner = await partnerWithKeys();
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const tokenRequest = {
      rawBody: form({ grant_type: "client_credentials", client_id: partner.live.client_id, client_secret: partner.live.key }),
      contentType: "application/x-www-form-urlencoded",
    };
    expectUnavailable(await callWithEnv(unreachable().env, "POST", "/partner/v1/oauth/token", tokenRequest));
    const token = await call("POST", "/partner/v1/oauth/token", tokenRequest);
    expect(token.status).toBe(200);
    expectUnavailable(await callWithEnv(unreachable().env, "GET", "/partner/v1/me", { token: token.body.access_token }));
  });

  it("fails closed for failed authentication too (the per-address count cannot be made)", async () => {
    const res = await callWithEnv(unreachable().env, "GET", "/partner/v1/me", { headers: { "X-API-Key": "nope", "CF-Connecting-IP": "203.0.113.77" } });
    expectUnavailable(res);
  });

  it("is declared: every authenticated operation of both documents lists 503", async () => {
    for (const path of ["/partner/v1/openapi.json", "/v1/openapi.json"]) {
      const doc = (await call("GET", path)).body;
      const missing: string[] = [];
      for (const [route, operations] of Object.entries<any>(doc.paths)) {
        for (const [method, operation] of Object.entries<any>(operations)) {
          const authenticated = (operation.security ?? doc.security ?? []).length > 0 || route.endsWith("/oauth/token");
          if (authenticated && !operation.responses?.["503"]) missing.push(`${method.toUpperCase()} ${route}`);
        }
      }
      expect(missing, path).toEqual([]);
    }
  });
});
