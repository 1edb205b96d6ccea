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
});
