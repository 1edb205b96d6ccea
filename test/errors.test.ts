import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { onError } from "../src/api/problem";
import type { AppEnv } from "../src/app-env";
import { requestId } from "../src/middleware/request-id";
import { admin, ADMIN_TOKEN, call } from "./helpers/api";
import { expectProblem, partnerWithKeys } from "./helpers/seed";

// The JSON doors' failures outside any handler's own refusals: the router's 404 and 405, the body
// guards (malformed, wrong type, missing, oversized, unknown keys) and an unhandled exception, each as
// problem+json with its status and code; and the request id on every answer. The HTML doors' pages are
// tested where they are drawn (test/portal, test/hub).
describe("the JSON APIs answer unknown routes, wrong methods, bad bodies and unhandled exceptions with problem+json and a request id", () => {
  it("answers an unknown route with 404 not_found", async () => {
    const res = await call("GET", "/nowhere");
    expectProblem(res, 404, "not_found");
    expect(res.body).toMatchObject({ status: 404, title: "Not found" });
    expect(res.body.type).toContain("#error-not_found");
  });

  it("answers an unknown route under an API with 404 once authenticated", async () => {
    const { live } = await partnerWithKeys();
    expectProblem(await call("GET", "/partner/v1/nothing-here", { key: live.key }), 404, "not_found");
  });

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("DELETE", "/partner/v1/me", { key: live.key });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("Allow")).toBe("GET");
  });

  it("answers malformed JSON with 400 invalid_request", async () => {
    const res = await call("POST", "/admin/v1/organisations", {
      rawBody: "{not json",
      contentType: "application/json",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.detail).toMatch(/not valid JSON/);
  });

  it("answers the wrong content type with 415 unsupported_media_type", async () => {
    const res = await call("POST", "/admin/v1/organisations", {
      rawBody: "name=x&kind=partner",
      contentType: "text/plain",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expectProblem(res, 415, "unsupported_media_type");
  });

  it("answers a missing body on a JSON route with 415", async () => {
    const res = await call("POST", "/admin/v1/organisations", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect([400, 415]).toContain(res.status);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
  });

  it("names the field of a validation failure and refuses unknown keys", async () => {
    const wrongType = await admin("POST", "/organisations", { name: 42, kind: "partner" });
    expectProblem(wrongType, 400, "invalid_request");
    expect(wrongType.body.error.field).toBe("name");

    const badEnum = await admin("POST", "/organisations", { name: "A", kind: "bank" });
    expect(badEnum.body.error.field).toBe("kind");

    const extra = await admin("POST", "/organisations", { name: "A", kind: "partner", id: "org_mine" });
    expectProblem(extra, 400, "invalid_request");
    expect(extra.body.error.field).toBe("id");
    expect(extra.body.errors).toEqual([{ field: "id", message: expect.stringContaining("Unknown field") }]);
  });

  it("answers an oversized JSON body with 413 payload_too_large", async () => {
    const res = await admin("POST", "/organisations", { name: "x".repeat(300_000), kind: "partner" });
    expectProblem(res, 413, "payload_too_large");
  });

  it("turns an unhandled exception into 500 internal_error without leaking it", async () => {
    const app = new Hono<AppEnv>();
    app.use("*", requestId);
    app.get("/boom", () => {
      throw new Error("secret database detail at line 42");
    });
    app.onError(onError);
    const res = await app.request("http://x/boom");
    const body = await res.json<any>();
    expect(res.status).toBe(500);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect(body.error.code).toBe("internal_error");
    expect(JSON.stringify(body)).not.toContain("secret database detail");
    expect(JSON.stringify(body)).not.toContain("at ");
    expect(res.headers.get("X-Request-Id")).toBe(body.request_id);
  });

  it("puts a request id on successful responses too", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/me", { key: live.key });
    expect(res.headers.get("X-Request-Id")).toMatch(/^req_/);
  });
});
