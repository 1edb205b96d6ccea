import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { createOrganisation, expectProblem, issueKey, partnerWithKeys } from "../helpers/seed";

const body = { country: "GB", funding: { purpose: "working_capital", amount: 50_000 } };
const SHOP = "https://shop.example";

async function publishableKey() {
  const partner = await createOrganisation("partner");
  return issueKey(partner.id, "sandbox", "publishable", [SHOP]);
}

describe("POST /partner/v1/prequalification from a browser", () => {
  it("answers a preflight with the CORS grant", async () => {
    const res = await call("OPTIONS", "/partner/v1/prequalification", {
      headers: { Origin: SHOP, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, x-api-key" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(SHOP);
    expect(res.headers.get("Access-Control-Allow-Methods")).toContain("POST");
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("x-api-key");
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("content-type");
  });

  it("serves a publishable key from an allowed origin, with Access-Control-Allow-Origin", async () => {
    const key = await publishableKey();
    const res = await call("POST", "/partner/v1/prequalification", { key: key.key, body, headers: { Origin: SHOP } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(SHOP);
    expect(res.body.country).toBe("UK");
  });

  it("refuses a publishable key from another origin with 403 origin_not_allowed", async () => {
    const key = await publishableKey();
    const res = await call("POST", "/partner/v1/prequalification", { key: key.key, body, headers: { Origin: "https://evil.example" } });
    expectProblem(res, 403, "origin_not_allowed");
    // The page may read the refusal (docs/embed.md), never an answer: the body is the problem alone.
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://evil.example");
    expect(res.body.eligible).toBeUndefined();
  });

  it("keeps a publishable key to the browser-safe routes", async () => {
    const key = await publishableKey();
    expectProblem(await call("GET", "/partner/v1/me", { key: key.key, headers: { Origin: SHOP } }), 403, "wrong_key_type");
  });
});

describe("POST /partner/v1/prequalification from a server", () => {
  it("works with a secret key, sandbox or live, and with a bearer token", async () => {
    const { sandbox, live } = await partnerWithKeys();
    expect((await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body })).status).toBe(200);
    expect((await call("POST", "/partner/v1/prequalification", { key: live.key, body })).status).toBe(200);
    const token = (
      await call("POST", "/partner/v1/oauth/token", {
        body: { grant_type: "client_credentials", client_id: sandbox.client_id, client_secret: sandbox.key },
      })
    ).body.access_token;
    expect((await call("POST", "/partner/v1/prequalification", { token, body })).status).toBe(200);
  });

  it("gives a secret key no CORS grant", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body, headers: { Origin: SHOP } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
  // No key, a malformed key, a lender key, a live key on the sandbox host: test/security.test.ts.
});

describe("the API description", () => {
  it("documents prequalification from the same schemas", async () => {
    const res = await call("GET", "/partner/v1/openapi.json");
    expect(res.status).toBe(200);
    const operation = res.body.paths["/prequalification"].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403"]));
    expect(res.body.components.schemas.PrequalificationRequest.required).toEqual(expect.arrayContaining(["country", "funding"]));
  });
});
