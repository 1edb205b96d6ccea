import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, type CallOptions } from "../helpers/api";
import { contract, contractProblems, type ApiName, type Operation } from "../helpers/contract";
import { createOrganisation, issueKey } from "../helpers/seed";

/**
 * Walks every operation of the partner, lender and operator documents and
 * provokes each status the guards and validators can produce (no or the wrong
 * credentials, a bad path or query parameter, a repeated query parameter, an
 * oversized body, another media type, a bad Idempotency-Key, text that is not
 * valid Unicode), then checks that the operation declares the status answered
 * and the body validates against what it declares for that status.
 */

/** Over the JSON limit (256 KiB), and over the upload limit (20 MiB) for multipart and PDF bodies. */
const oversized = (mediaType: string) => "x".repeat(/^(multipart|application\/pdf)/.test(mediaType) ? 21 * 1024 * 1024 : 300 * 1024);
const BODY_METHODS = new Set(["post", "put", "patch", "delete"]);

interface Probe {
  label: string;
  path: string;
  options: CallOptions;
  /** The statuses this probe must provoke: proves it reached the guard it aims at. */
  expect: number[];
  /** When set, the problem must name this field. */
  field?: string;
}

/**
 * A key of the API's own, so the wrong-key probe is the only one refused for its credentials. A key
 * serves the probes of several operations, at most KEY_BUDGET of them, then a fresh one takes over:
 * the per-key rate limit (120 a minute) never answers for the guard under test, and the walk no
 * longer makes an organisation and a key (two admin calls) for every operation.
 */
const KEY_BUDGET = 60;
async function credentialsFor(api: ApiName): Promise<(headers?: Record<string, string>) => CallOptions> {
  if (api === "operator") return (headers = {}) => ({ headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...headers } });
  const organisation = await createOrganisation(api);
  const { key } = await issueKey(organisation.id, "sandbox");
  return (headers = {}) => ({ key, headers });
}

const fill = (template: string, value: (name: string) => string) => template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(value(name)));
const mediaTypes = (op: Operation): string[] => Object.keys(op.operation.requestBody?.content ?? {});
const parameters = (op: Operation, where: string): any[] => (op.operation.parameters ?? []).filter((p: any) => p.in === where);
const secured = (op: Operation) => op.api === "operator" || (op.operation.security?.length ?? 0) > 0;
const isTokenEndpoint = (op: Operation) => op.template === "/oauth/token";

function probesFor(op: Operation, as: (headers?: Record<string, string>) => CallOptions, wrongKey: string | undefined): Probe[] {
  const path = `${op.base}${fill(op.template, () => "x")}`;
  const probes: Probe[] = [];
  const ip = () => ({ "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 250) + 1}` });

  if (secured(op)) probes.push({ label: "no credentials", path, options: { headers: ip() }, expect: [401] });
  if (wrongKey && secured(op)) probes.push({ label: "the other API's key", path, options: { key: wrongKey }, expect: [403] });

  for (const param of parameters(op, "path")) {
    const bad = `${op.base}${fill(op.template, (name) => (name === param.name ? "a".repeat(600) : "x"))}`;
    // Sent without a body: an upload route's media-type check may answer first.
    probes.push({ label: `an oversized path parameter ${param.name}`, path: bad, options: as(), expect: mediaTypes(op).length > 0 ? [400, 404, 415] : [400, 404] });
  }
  for (const param of parameters(op, "query")) {
    probes.push({ label: `query ${param.name} twice`, path: `${path}?${param.name}=1&${param.name}=2`, options: as(), expect: [400], field: `query.${param.name}` });
    probes.push({ label: `an oversized query ${param.name}`, path: `${path}?${param.name}=${"a".repeat(2000)}`, options: as(), expect: [400] });
  }
  if (BODY_METHODS.has(op.method)) {
    const mediaType = mediaTypes(op)[0] ?? "application/json";
    probes.push({ label: "an oversized body", path, options: { ...as(), rawBody: oversized(mediaType), contentType: mediaType }, expect: [413] });
  }
  if (mediaTypes(op).length > 0) {
    probes.push({ label: "another media type", path, options: { ...as(), rawBody: "hello", contentType: "text/plain" }, expect: [isTokenEndpoint(op) ? 400 : 415] });
  }
  if (mediaTypes(op).includes("application/json")) {
    probes.push({ label: "malformed JSON", path, options: { ...as(), rawBody: "{nope", contentType: "application/json" }, expect: [400] });
    if (!isTokenEndpoint(op)) {
      probes.push({ label: "an unpaired surrogate", path, options: { ...as(), rawBody: '{"note\\ud800": "a\\udc00"}', contentType: "application/json" }, expect: [400] });
    }
  }
  if (op.method === "post" && secured(op) && op.api !== "operator" && !op.operation["x-idempotency-key"]) {
    probes.push({ label: "a bad Idempotency-Key", path, options: as({ "Idempotency-Key": "has spaces" }), expect: [400], field: "header.Idempotency-Key" });
  }
  return probes;
}

describe("every status an operation answers is declared in its document", () => {
  for (const api of ["partner", "lender", "operator"] as const) {
    it(`${api} API`, async () => {
      const { operations } = await contract();
      const ofApi = operations.filter((o) => o.api === api);
      expect(ofApi.length).toBeGreaterThan(0);
      const other = api === "operator" ? undefined : await credentialsFor(api === "partner" ? "lender" : "partner");
      const wrongKey = other?.().key;
      const failures: string[] = [];
      let probed = 0;
      let as = await credentialsFor(api);
      let spent = 0;
      for (const op of ofApi) {
        let probes = probesFor(op, as, wrongKey);
        if (spent + probes.length > KEY_BUDGET) {
          as = await credentialsFor(api);
          spent = 0;
          probes = probesFor(op, as, wrongKey);
        }
        spent += probes.length;
        for (const probe of probes) {
          probed += 1;
          const name = `${op.method.toUpperCase()} ${op.base}${op.template} with ${probe.label}`;
          const res = await call(op.method.toUpperCase(), probe.path, { ...probe.options, unjudged: true });
          const problems = await contractProblems(op.method, probe.path, res);
          if (problems.length > 0) failures.push(`${name}: ${problems.join("; ")}`);
          if (!probe.expect.includes(res.status)) failures.push(`${name}: answered ${res.status}, expected ${probe.expect.join(" or ")} (${res.text.slice(0, 200)})`);
          if (probe.field && res.body?.error?.field !== probe.field) failures.push(`${name}: names ${res.body?.error?.field}, expected ${probe.field}`);
          if (probe.label.endsWith("twice") && !/is given 2 times; send it once/.test(res.body?.detail)) failures.push(`${name}: says "${res.body?.detail}"`);
        }
      }
      expect(failures).toEqual([]);
      expect(probed).toBeGreaterThan(ofApi.length);
    }, 120_000);
  }
});

describe("the contract judge", () => {
  it("refuses an undeclared status and a body that drifts from its schema", async () => {
    const ok = { status: 200, headers: new Headers({ "Content-Type": "application/json" }) };
    expect(await contractProblems("GET", "/partner/v1/me", { ...ok, status: 418, text: "{}" })).toEqual([expect.stringContaining("418")]);
    expect(await contractProblems("GET", "/partner/v1/leads", { ...ok, text: JSON.stringify({ leads: "none", next_cursor: null }) })).not.toEqual([]);
    expect(await contractProblems("GET", "/partner/v1/leads", { ...ok, text: JSON.stringify({ leads: [], next_cursor: null }) })).toEqual([]);
    const problem = { status: 404, headers: new Headers({ "Content-Type": "text/plain" }), text: "Not found" };
    expect(await contractProblems("GET", "/partner/v1/leads/x", problem)).toEqual([expect.stringContaining("text/plain")]);
  });

  it("judges a schema that many operations share by reference at each of them, in each API", async () => {
    // The judge compiles one validator per API and schema text (test/helpers/contract.ts): every operation that
    // refers to `Problem` gets it, and a drifting body is still refused wherever it arrives.
    const refused = await call("GET", "/partner/v1/leads", { unjudged: true });
    expect(refused.status).toBe(401);
    const answer = { status: 401, headers: refused.headers, text: refused.text };
    const drifted = { ...answer, text: JSON.stringify({ ...refused.body, status: "401", error: { code: "no_such_code", message: "x" } }) };
    for (const path of ["/partner/v1/leads", "/partner/v1/me", "/partner/v1/webhooks", "/v1/referrals", "/v1/me"]) {
      expect(await contractProblems("GET", path, answer)).toEqual([]);
      const problems = await contractProblems("GET", path, drifted);
      expect(problems).toEqual(expect.arrayContaining([expect.stringContaining("body/status must be integer"), expect.stringContaining("body/error/code must be equal to one of the allowed values")]));
    }
  });
});
