import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { createAdminApi } from "../src/api/admin";
import { createApp } from "../src/app";
import { examplesOf, type ApiName } from "../src/api/reference/document";
import { LENDER_EVENT_VALUES, PARTNER_EVENT_VALUES } from "../src/domain/reference/values";
import { createLenderApi } from "../src/api/lender";
import { createPartnerApi } from "../src/api/partner";
import { ADMIN_TOKEN, call } from "./helpers/api";
import { schemaProblems } from "./helpers/contract";

// Every operation of the three APIs carries a request and a response example
// and its errors; every example is accepted by the zod schema that validates
// (requests) or describes (responses) that operation.
const APIS: { api: ApiName; path: string; router: () => ReturnType<typeof createPartnerApi> }[] = [
  { api: "partner", path: "/partner/v1/openapi.json", router: createPartnerApi },
  { api: "lender", path: "/v1/openapi.json", router: createLenderApi },
  { api: "admin", path: "/admin/v1/openapi.json", router: createAdminApi },
];

const BINARY = /^application\/(pdf|octet-stream)$/;
/** Operations no request can get wrong: no credentials, parameters or body (the liveness probe). */
const NO_CLIENT_ERRORS = new Set(["GET /health"]);

describe.each(APIS)("the $api API document", ({ api, path, router }) => {
  it("has a request example, a success example and its errors on every operation", async () => {
    const { status, body } = await call("GET", path);
    expect(status).toBe(200);
    const missing: string[] = [];
    let operations = 0;
    for (const [route, item] of Object.entries<any>(body.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        operations++;
        const name = `${method.toUpperCase()} ${route}`;
        for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) {
          if (!BINARY.test(type) && media.example === undefined) missing.push(`${name} request ${type}`);
        }
        const [code, success] = Object.entries<any>(op.responses).find(([s]) => s.startsWith("2")) ?? [];
        if (!code) missing.push(`${name} has no success response`);
        for (const [type, media] of Object.entries<any>(success?.content ?? {})) if (media.example === undefined) missing.push(`${name} ${code} ${type}`);
        const errors = Object.keys(op.responses).filter((s) => /^[45]/.test(s));
        if (!NO_CLIENT_ERRORS.has(name) && !errors.some((s) => s.startsWith("4"))) missing.push(`${name} documents no 4xx`);
        for (const s of errors) if (!op.responses[s].content?.["application/problem+json"]) missing.push(`${name} ${s} is not problem+json`);
      }
    }
    expect(operations).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it("has examples its own zod schemas accept", () => {
    const examples = examplesOf(api);
    const checked: string[] = [];
    const rejected: string[] = [];
    for (const definition of router().openAPIRegistry.definitions) {
      if (definition.type !== "route") continue;
      const { method, path: route, request, responses } = definition.route;
      const key = `${method.toUpperCase()} ${route}`;
      const example = examples.get(key);
      if (!example) continue;
      const check = (what: string, schema: z.ZodType | undefined, value: unknown) => {
        if (!schema || value === undefined || value === null) return;
        const result = schema.safeParse(value);
        checked.push(`${key} ${what}`);
        if (!result.success) rejected.push(`${key} ${what}: ${result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
      };
      const body = request?.body?.content as Record<string, { schema?: z.ZodType }> | undefined;
      check("request", body?.["application/json"]?.schema ?? body?.["application/x-www-form-urlencoded"]?.schema, example.request);
      const success = Object.entries(responses).find(([s]) => s.startsWith("2"))?.[1] as { content?: Record<string, { schema?: z.ZodType }> } | undefined;
      check("response", success?.content?.["application/json"]?.schema, example.response);
    }
    expect(rejected).toEqual([]);
    expect(checked.length).toBeGreaterThan(5);
  });
});

describe("webhook events in the OpenAPI documents", () => {
  it.each([
    ["/partner/v1/openapi.json", PARTNER_EVENT_VALUES],
    ["/v1/openapi.json", LENDER_EVENT_VALUES],
  ] as const)("%s describes every event with its payload in full and reference mode", async (path, events) => {
    const { body } = await call("GET", path);
    expect(Object.keys(body.webhooks).sort()).toEqual([...events].sort());
    const resolve = (ref: string) => body.components.schemas[ref.split("/").pop()!];
    for (const event of events) {
      const envelope = resolve(body.webhooks[event].post.requestBody.content["application/json"].schema.$ref);
      expect(envelope.properties.event.enum).toEqual([event]);
      const modes = envelope.properties.data.anyOf.map((s: any) => resolve(s.$ref));
      const modeOf = (schema: any): string => schema.properties?.payload_mode?.enum?.[0] ?? schema.allOf?.map(modeOf).find(Boolean);
      expect(modes.map(modeOf).sort()).toEqual(["full", "reference"]);
    }
  });
});

describe("the webhook events' examples, captured from a real run (scripts/capture-webhook-examples.mjs)", () => {
  /** Every string in a body, with where it sits: an example never carries an empty id or reference. */
  const strings = (value: unknown, at = ""): [string, string][] =>
    typeof value === "string" ? [[at, value]] : value && typeof value === "object" ? Object.entries(value).flatMap(([k, v]) => strings(v, `${at}/${k}`)) : [];

  it.each([
    ["partner", "/partner/v1/openapi.json", PARTNER_EVENT_VALUES],
    ["lender", "/v1/openapi.json", LENDER_EVENT_VALUES],
  ] as const)("the %s document shows a delivered body per event and payload mode, each valid against the event's schema", async (api, path, events) => {
    const { body } = await call("GET", path);
    const problems: string[] = [];
    for (const event of events) {
      const media = body.webhooks[event].post.requestBody.content["application/json"];
      expect(Object.keys(media.examples ?? {}).sort(), event).toEqual(["full", "reference"]);
      for (const mode of ["full", "reference"] as const) {
        const example = media.examples[mode].value;
        for (const problem of await schemaProblems(api, media.schema, example)) problems.push(`${event} ${mode}${problem}`);
        expect(example, `${event} ${mode}`).toMatchObject({ event, data: { payload_mode: mode } });
        expect(example.id, `${event} ${mode}`).toMatch(/^evt_[a-z0-9]{12,}$/);
        expect(example.livemode, `${event} ${mode}`).toBe(example.environment === "live");
        expect(strings(example).filter(([at, v]) => v === "" && !/(description|notes|subject)$/.test(at)), `${event} ${mode}`).toEqual([]);
      }
      // One event, one id: both endpoints received the same event.
      expect(media.examples.full.value.id).toBe(media.examples.reference.value.id);
    }
    expect(problems).toEqual([]);
  });
});

describe("the operator API document", () => {
  it("is readable without the token where the operator API exists, and names its bearer scheme", async () => {
    const { status, body } = await call("GET", "/admin/v1/openapi.json");
    expect(status).toBe(200);
    expect(body.components.securitySchemes.adminToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(body.paths["/organisations"].post.security).toEqual([{ adminToken: [] }]);
    expect(JSON.stringify(body)).not.toContain(ADMIN_TOKEN);
  });

  it("is a 404 like the rest of the operator API where ADMIN_TOKEN is not configured", async () => {
    const res = await createApp().request("http://api.test/admin/v1/openapi.json", {}, { ...env, ADMIN_TOKEN: undefined });
    expect(res.status).toBe(404);
  });

  it("still needs the token for everything else", async () => {
    expect((await call("GET", "/admin/v1/organisations")).status).toBe(401);
  });
});

describe("the reference page", () => {
  it("renders Scalar over the three documents with its script served from this Worker", async () => {
    const res = await call("GET", "/docs");
    expect(res.status).toBe(200);
    for (const url of ["/partner/v1/openapi.json", "/v1/openapi.json", "/admin/v1/openapi.json"]) expect(res.text).toContain(`"url": "${url}"`);
    // Both script tags carry the answer's CSP nonce (issue 21 item 13).
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("Content-Security-Policy") ?? "")![1];
    expect(res.text).toMatch(new RegExp(`<script nonce="${nonce}" src="/docs/scalar\\.[0-9a-f]{16}\\.js"></script>`));
    expect(res.text).not.toMatch(/https:\/\/(cdn|fonts)\./);
    expect(res.text).toContain('id="error-rate_limited"');
    expect(res.text).toContain('id="deal-deprecated-fields"');
    const script = await call("GET", "/docs/scalar.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect(script.text).toContain("createApiReference");
  });
});
