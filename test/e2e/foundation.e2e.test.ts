import { describe, expect, it } from "vitest";
import { baseUrl, http, newLender, newPartner, operator, sandboxUrl } from "./client";

const isProblem = (res: { status: number; headers: Headers; body: any }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  expect(res.body.error.code).toBe(code);
  expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
};

describe("an integrator's first hour, over HTTP against wrangler dev", () => {
  it("mints a token form-encoded, calls /me with it, and sees the environment", async () => {
    const { sandbox } = await newPartner();
    const token = await http("POST", `${baseUrl()}/partner/v1/oauth/token`, {
      raw: new URLSearchParams({ grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, environment: "sandbox" });
    const me = await http("GET", `${baseUrl()}/partner/v1/me`, { headers: { Authorization: `Bearer ${token.body.access_token}` } });
    expect(me.status).toBe(200);
    expect(me.body.environment).toBe("sandbox");
    expect(me.headers.get("ratelimit-policy")).toBe('"default";q=120;w=60');
    expect(me.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/);
  });

  it("treats 127.0.0.1 as a sandbox host: live keys are refused there", async () => {
    const { live, sandbox } = await newPartner();
    isProblem(await http("GET", `${sandboxUrl()}/partner/v1/me`, { headers: { "X-API-Key": live.key } }), 403, "environment_mismatch");
    const ok = await http("GET", `${sandboxUrl()}/partner/v1/me`, { headers: { "X-API-Key": sandbox.key } });
    expect(ok.body).toMatchObject({ environment: "sandbox", host: "sandbox" });
    const prod = await http("GET", `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": live.key } });
    expect(prod.body).toMatchObject({ environment: "live", host: "production" });
  });

  it("keeps keys to their API", async () => {
    const partner = await newPartner();
    const lender = await newLender();
    isProblem(await http("GET", `${baseUrl()}/v1/me`, { headers: { "X-API-Key": partner.live.key } }), 403, "wrong_key_type");
    isProblem(await http("GET", `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": lender.live.key } }), 403, "wrong_key_type");
    expect((await http("GET", `${baseUrl()}/v1/me`, { headers: { "X-API-Key": lender.live.key } })).status).toBe(200);
  });

  it("revokes a key with immediate effect", async () => {
    const { live } = await newPartner();
    expect((await http("GET", `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": live.key } })).status).toBe(200);
    expect((await operator("DELETE", `/keys/${live.client_id}`)).status).toBe(204);
    isProblem(await http("GET", `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": live.key } }), 401, "unauthorized");
  });

  it("answers failures as problem+json: unknown route, wrong method, malformed JSON", async () => {
    const { live } = await newPartner();
    isProblem(await http("GET", `${baseUrl()}/nowhere`), 404, "not_found");
    isProblem(await http("PUT", `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": live.key } }), 405, "method_not_allowed");
    isProblem(await http("POST", `${baseUrl()}/partner/v1/oauth/token`, { raw: "{", headers: { "Content-Type": "application/json" } }), 400, "invalid_request");
  });

  it("reads reference data with country aliases", async () => {
    const { live } = await newPartner();
    const res = await http("GET", `${baseUrl()}/partner/v1/enums/revenue-bands?country=United%20Kingdom`, { headers: { "X-API-Key": live.key } });
    expect(res.status).toBe(200);
    expect(res.body.country).toBe("UK");
  });

  it("serves both OpenAPI documents and the docs page", async () => {
    const partner = await http("GET", `${baseUrl()}/partner/v1/openapi.json`);
    expect(partner.body.info.version).toBe("1.0.0");
    expect((await http("GET", `${baseUrl()}/v1/openapi.json`)).body.openapi).toBe("3.1.0");
    expect((await http("GET", `${baseUrl()}/docs`)).text).toContain("Error codes");
  });
});
