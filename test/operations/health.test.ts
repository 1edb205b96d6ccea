import { describe, expect, it } from "vitest";
import { call, PRODUCTION, SANDBOX } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { callWith } from "./app-with-env";

/** Bindings that throw on any use: a storage call anywhere on the path fails the request. */
const untouchable = (name: string, touched: string[]) =>
  new Proxy(
    {},
    {
      get(_target, property) {
        touched.push(`${name}.${String(property)}`);
        throw new Error(`${name} must not be touched by /health`);
      },
    },
  );

describe("GET /health", () => {
  it("answers 200 {status: ok} without credentials on the production and the sandbox host", async () => {
    for (const host of [PRODUCTION, SANDBOX, "http://127.0.0.1:8787"]) {
      const res = await call("GET", "/health", { host });
      expect(res.status, host).toBe(200);
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(res.body).toEqual({ status: "ok" });
    }
  });

  it("touches no D1, no Durable Object, no queue and no bucket", async () => {
    const touched: string[] = [];
    const res = await callWith(
      {
        DB: untouchable("DB", touched),
        KEY_AUTHORITY: untouchable("KEY_AUTHORITY", touched),
        WEBHOOK_QUEUE: untouchable("WEBHOOK_QUEUE", touched),
        DOCUMENTS: untouchable("DOCUMENTS", touched),
      },
      "GET",
      "/health",
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(touched).toEqual([]);
    // The same throwing bindings do fail a route that needs storage, so the probe above proves something.
    const { sandbox } = await partnerWithKeys();
    const me = await callWith({ DB: untouchable("DB", touched) }, "GET", "/partner/v1/me", { key: sandbox.key });
    expect(me.status).not.toBe(200);
    expect(touched.length).toBeGreaterThan(0);
  });

  it("answers even when a production deployment lacks its signing secret", async () => {
    const res = await callWith({ DEPLOYMENT: "production", SIGNING_SECRET: undefined }, "GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("is listed in both OpenAPI documents, at the host's root", async () => {
    for (const path of ["/partner/v1/openapi.json", "/v1/openapi.json"]) {
      const { body } = await call("GET", path);
      const operation = body.paths["/health"]?.get;
      expect(operation, path).toBeDefined();
      expect(operation.security ?? []).toEqual([]);
      expect(operation.servers).toEqual([{ url: "/" }]);
      expect(operation.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Health" });
      expect(body.components.schemas.Health).toMatchObject({ properties: { status: { enum: ["ok"] } }, required: ["status"] });
    }
  });
});
