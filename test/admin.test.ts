import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { ADMIN_TOKEN, admin, call, ownAddress } from "./helpers/api";
import { createOrganisation, expectProblem } from "./helpers/seed";

describe("operator API", () => {
  it("creates organisations and keys, and shows keys only once", async () => {
    const created = await admin("POST", "/organisations", { name: "Acme Brokers", kind: "partner" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^org_/), name: "Acme Brokers", kind: "partner" });

    const key = await admin("POST", `/organisations/${created.body.id}/keys`, { environment: "live" });
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ environment: "live", type: "secret", client_id: expect.stringMatching(/^rfs_ptr_live_/) });

    const detail = await admin("GET", `/organisations/${created.body.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.keys).toHaveLength(1);
    expect(JSON.stringify(detail.body)).not.toContain(key.body.key);
    expect(detail.body.keys[0]).not.toHaveProperty("key_hash");

    const list = await admin("GET", "/organisations");
    expect(list.body.organisations.map((o: any) => o.id)).toContain(created.body.id);
  });

  it("stores only a hash of the key", async () => {
    const org = await createOrganisation("partner");
    const key = await admin("POST", `/organisations/${org.id}/keys`, { environment: "sandbox" });
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE client_id = ?").bind(key.body.client_id).first<Record<string, string>>();
    expect(Object.values(row!).join(" ")).not.toContain(key.body.key.split("_").pop());
    expect(row!.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses publishable keys for lenders and origins on secret keys", async () => {
    const lender = await createOrganisation("lender");
    const res = await admin("POST", `/organisations/${lender.id}/keys`, { environment: "live", type: "publishable", allowed_origins: ["https://a.example"] });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("type");
    const partner = await createOrganisation("partner");
    const origins = await admin("POST", `/organisations/${partner.id}/keys`, { environment: "live", allowed_origins: ["https://a.example"] });
    expect(origins.body.error.field).toBe("allowed_origins");
    const badOrigin = await admin("POST", `/organisations/${partner.id}/keys`, { environment: "live", type: "publishable", allowed_origins: ["https://a.example/path"] });
    expect(badOrigin.body.error.field).toBe("allowed_origins.0");
  });

  it("validates bodies and answers unknown organisations with 404", async () => {
    expectProblem(await admin("POST", "/organisations/org_nope/keys", { environment: "live" }), 404, "not_found");
    expectProblem(await admin("GET", "/organisations/org_nope"), 404, "not_found");
    const env_ = await admin("POST", `/organisations/${(await createOrganisation("partner")).id}/keys`, { environment: "staging" });
    expect(env_.body.error.field).toBe("environment");
  });

  it("refuses a wrong operator token with 401", async () => {
    const res = await call("GET", "/admin/v1/organisations", { headers: { Authorization: "Bearer wrong" } });
    expectProblem(res, 401, "unauthorized");
  });

  // Issue 39 item 6: the operator API had no failed-attempt limit, so a token could be guessed at any speed.
  it("counts wrong operator tokens against the sender's address: the 121st in a minute is 429 with the spec's headers", async () => {
    const guesser = ownAddress();
    const wrong = (headers: Record<string, string>) => call("GET", "/admin/v1/organisations", { headers: { Authorization: `Bearer ${"0".repeat(64)}`, ...headers } });
    const first = await wrong(guesser);
    expectProblem(first, 401, "unauthorized");
    expect(first.headers.get("RateLimit")).toMatch(/^"default";r=119;t=\d+$/);
    let last = first;
    for (let i = 2; i <= 121; i++) last = await wrong(guesser);
    expectProblem(last, 429, "rate_limited");
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(last.headers.get("RateLimit-Policy")).toBe('"default";q=120;w=60');
    expect(last.headers.get("RateLimit")).toMatch(/^"default";r=0;/);
    // No token at all is a failed attempt too.
    expectProblem(await call("GET", "/admin/v1/organisations", { headers: guesser }), 429, "rate_limited");
    // Another address is answered 401, and the operator's own token is never refused for someone else's guesses.
    expectProblem(await wrong(ownAddress()), 401, "unauthorized");
    const operator = await call("GET", "/admin/v1/organisations", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...ownAddress() } });
    expect(operator.status).toBe(200);
    expect(operator.headers.get("RateLimit")).toBeNull();
  }, 60_000);

  it("answers 404 to everything when no ADMIN_TOKEN is configured", async () => {
    const app = createApp();
    const res = await app.request("http://api.test/admin/v1/organisations", { headers: { Authorization: "Bearer " } }, { ...env, ADMIN_TOKEN: undefined });
    expect(res.status).toBe(404);
    expect((await res.json<any>()).error.code).toBe("not_found");
    expect(exports.default).toBeDefined();
  });
});
