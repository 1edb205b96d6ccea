import { describe, expect, it } from "vitest";
import { call } from "./helpers/api";

describe("OpenAPI documents", () => {
  it("serves the partner API as OpenAPI 3.1, version 1.0.0, without authentication", async () => {
    const res = await call("GET", "/partner/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.info.version).toBe("1.0.0");
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(["/oauth/token", "/me", "/enums", "/enums/{name}"]));
    expect(res.body.components.schemas.Problem).toBeDefined();
    expect(res.body.components.securitySchemes).toHaveProperty("bearerAuth");
  });

  it("serves the lender API document", async () => {
    const res = await call("GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.paths["/me"]).toBeDefined();
  });

  it("documents errors as problem+json on every operation", async () => {
    const { body } = await call("GET", "/partner/v1/openapi.json");
    for (const [path, item] of Object.entries<any>(body.paths)) {
      for (const op of Object.values<any>(item)) {
        expect(op.responses["500"]?.content?.["application/problem+json"], `${path}`).toBeDefined();
      }
    }
  });

  // Scalar's try-it starts with an operation's first security requirement: the one a newcomer has
  // in hand (the key `npm run dev` prints; the operator's ADMIN_TOKEN), not a token they must exchange first.
  it.each([
    ["/partner/v1/openapi.json", "apiKey"],
    ["/v1/openapi.json", "apiKey"],
    ["/admin/v1/openapi.json", "adminToken"],
  ])("%s: every secured operation offers %s first", async (path, scheme) => {
    const { body } = await call("GET", path, { headers: { Authorization: "Bearer test-admin-token" } });
    const first = new Set<string>();
    for (const item of Object.values<any>(body.paths)) {
      for (const op of Object.values<any>(item)) if (op.security?.length) first.add(Object.keys(op.security[0])[0]);
    }
    expect([...first]).toEqual([scheme]);
  });
});
