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

  it("serves the same document on every request, each host with its own servers", async () => {
    // The document is built once per API and origin (src/api/reference/document.ts), not on every request.
    const production = await call("GET", "/partner/v1/openapi.json");
    const sandbox = await call("GET", "/partner/v1/openapi.json", { host: "http://sandbox.localhost" });
    const again = await call("GET", "/partner/v1/openapi.json");
    expect(production.body.servers).toEqual([{ url: "http://api.test/partner/v1" }]);
    expect(sandbox.body.servers).toEqual([{ url: "http://sandbox.localhost/partner/v1" }]);
    expect(again.text).toBe(production.text);
    expect({ ...sandbox.body, servers: production.body.servers }).toEqual(production.body);
    expect(again.headers.get("Content-Type")).toBe(production.headers.get("Content-Type"));
  });

  it("serves the lender API document", async () => {
    const res = await call("GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.paths["/me"]).toBeDefined();
  });

  // Every operation gets a 500 entry, so checking for one proves nothing; these check what a route declares.
  const documents = ["/partner/v1/openapi.json", "/v1/openapi.json", "/admin/v1/openapi.json"];
  const operations = (doc: any) =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path, op })));

  it.each(documents)("%s: every error response is problem+json naming codes of the Problem schema, each code at one status", async (url) => {
    const { body } = await call("GET", url, { headers: { Authorization: "Bearer test-admin-token" } });
    const known = new Set<string>(body.components.schemas.Problem.properties.error.properties.code.enum);
    const statusOf = new Map<string, string>();
    const wrong: string[] = [];
    for (const { name, op } of operations(body)) {
      const errors = Object.entries<any>(op.responses).filter(([status]) => Number(status) >= 400);
      // An operation that takes input or a key can be refused for it; only an input-less public one (GET /health) has nothing but 500.
      const takesSomething = (op.security ?? body.security ?? []).length > 0 || (op.parameters ?? []).length > 0 || op.requestBody;
      if (takesSomething && !errors.some(([status]) => status !== "500")) wrong.push(`${name}: declares no error but 500`);
      for (const [status, response] of errors) {
        if (!response.content?.["application/problem+json"]) wrong.push(`${name} ${status}: not problem+json`);
        for (const code of String(response.description).split(", ")) {
          if (!known.has(code)) wrong.push(`${name} ${status}: "${code}" is not an error code`);
          if (statusOf.has(code) && statusOf.get(code) !== status) wrong.push(`${name}: ${code} at ${status}, elsewhere at ${statusOf.get(code)}`);
          statusOf.set(code, status);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(statusOf.size).toBeGreaterThan(5);
  });

  it.each(documents)("%s: a secured operation declares 401 and 429, one with a path parameter 404", async (url) => {
    const { body } = await call("GET", url, { headers: { Authorization: "Bearer test-admin-token" } });
    const wrong: string[] = [];
    let secured = 0;
    for (const { name, path, op } of operations(body)) {
      const declared = new Set(Object.keys(op.responses));
      if ((op.security ?? body.security ?? []).length > 0) {
        secured += 1;
        for (const status of ["401", "429"]) if (!declared.has(status)) wrong.push(`${name}: no ${status}`);
      }
      if (path.includes("{") && !declared.has("404")) wrong.push(`${name}: a path parameter and no 404`);
    }
    expect(wrong).toEqual([]);
    expect(secured).toBeGreaterThan(0);
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
