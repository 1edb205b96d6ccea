import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { call } from "../helpers/api";
import { contract, contractProblems, type Operation } from "../helpers/contract";
import { fuzzParameters, fuzzTimeout } from "../helpers/fuzz-settings";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { hostileString, pastBounds, pathsOf, REMOVE, resolver, schemaAt, setAt, valueFor, wrongValue } from "./arbitraries";

/**
 * Our own fuzzer: requests generated from the partner and lender documents,
 * then mutated (wrong types, missing required fields, unknown keys, values
 * past their bounds, huge and empty strings, control characters and unpaired
 * surrogates, repeated query parameters, other media types, oversized
 * bodies). Every answer is judged against the documents: a declared status, a
 * problem document for errors, a schema-valid body for 2xx, never a 5xx.
 * Seeded: a failure prints its seed; FUZZ_SEED replays it, FUZZ_RUNS (or
 * `npm run fuzz`) runs many more.
 */

const MUTATIONS = ["none", "wrong-type", "remove", "unknown-key", "past-bounds", "hostile-string", "repeat-query", "media-type", "oversized", "no-body"] as const;
type Mutation = (typeof MUTATIONS)[number];

interface FuzzRequest {
  op: Operation;
  mutation: Mutation;
  path: string;
  query: [string, string][];
  contentType?: string;
  body?: string | FormData;
}

/** Ids that exist, so generated requests reach handlers and not only 404s. */
type Pools = Record<string, string[]>;

/** encodeURIComponent refuses unpaired surrogates; a client would send their UTF-8 replacement. */
const encode = (text: string) => encodeURIComponent(text.replace(/\p{Surrogate}/gu, "\ufffd"));

function paramValue(param: any, pools: Pools, resolve: ReturnType<typeof resolver>): fc.Arbitrary<string> {
  const pooled = pools[param.name] ?? [];
  return fc.oneof(
    ...(pooled.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...pooled) }] : []),
    { weight: 2, arbitrary: valueFor(param.schema, resolve).map(String) },
    { weight: 1, arbitrary: hostileString.map((s) => s.slice(0, 3000)) },
  );
}

function requestFor(op: Operation, document: any, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const resolve = resolver(document);
  const parameters: any[] = op.operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === "path");
  const queryParams = parameters.filter((p) => p.in === "query");
  const content: Record<string, any> = op.operation.requestBody?.content ?? {};
  const mediaType = Object.keys(content)[0];
  const bodySchema = mediaType ? content[mediaType].schema : undefined;

  const path = fc
    .tuple(...pathParams.map((p) => paramValue(p, pools, resolve)))
    .map((values) => values.reduce<string>((at, value, i) => at.replace(`{${pathParams[i].name}}`, encode(value)), `${op.base}${op.template}`));
  const query = fc
    .tuple(...queryParams.map((p) => fc.option(valueFor(p.schema, resolve).map(String), { nil: undefined, freq: 2 })))
    .map((values) => values.flatMap((v, i): [string, string][] => (v === undefined ? [] : [[queryParams[i].name, v]])));
  const body = bodySchema ? valueFor(bodySchema, resolve) : fc.constant(undefined);

  return fc
    .record({ path, query, body, mutation: fc.constantFrom(...MUTATIONS), where: fc.nat(), wrong: wrongValue, hostile: hostileString, queryValue: hostileString })
    .chain((r) => (r.mutation === "past-bounds" ? pastBounds(schemaAt(bodySchema, pathsOf(r.body)[r.where % pathsOf(r.body).length], resolve)).map((past) => ({ ...r, past })) : fc.constant({ ...r, past: undefined as unknown })))
    .chain((r) => fc.constantFrom("text/plain", "application/xml", "multipart/form-data", "application/x-www-form-urlencoded", "").map((otherType) => ({ ...r, otherType })))
    .map((r): FuzzRequest => {
      const places = pathsOf(r.body);
      const place = places[r.where % places.length];
      const objects = places.filter((p) => { const v = p.reduce<any>((at, k) => at?.[k], r.body); return v && typeof v === "object" && !Array.isArray(v); });
      let value: unknown = r.body;
      let query = r.query;
      let contentType: string | undefined = mediaType;
      switch (r.mutation) {
        case "wrong-type":
          value = setAt(r.body, place, r.wrong);
          break;
        case "remove":
          value = place.length > 0 ? setAt(r.body, place, REMOVE) : r.body;
          break;
        case "unknown-key":
          if (objects.length > 0) value = setAt(r.body, [...objects[r.where % objects.length], `unexpected_${r.where % 97}`], 1);
          break;
        case "past-bounds":
          value = setAt(r.body, place, r.past);
          break;
        case "hostile-string":
          value = setAt(r.body, place, r.hostile);
          if (r.query.length > 0) query = r.query.map(([k, v], i) => [k, i === r.where % r.query.length ? r.queryValue : v]);
          break;
        case "repeat-query":
          if (queryParams.length > 0) {
            const name = queryParams[r.where % queryParams.length].name;
            query = [...r.query, [name, "1"], [name, "2"]];
          }
          break;
        case "media-type":
          contentType = r.otherType || undefined;
          break;
        case "no-body":
          value = undefined;
          break;
      }
      const request: FuzzRequest = { op, mutation: r.mutation, path: r.path, query: query.map(([k, v]) => [k, v.replace(/\p{Surrogate}/gu, "\ufffd")]), contentType };
      if (op.method === "get") {
        // A GET carries no body: fetch refuses to send one.
      } else if (r.mutation === "oversized") {
        request.contentType = mediaType ?? "application/json";
        request.body = JSON.stringify({ padding: "a".repeat(300 * 1024) });
      } else if (value !== undefined && mediaType === "multipart/form-data" && contentType === mediaType) {
        const form = new FormData();
        for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
          form.append(k, k === "file" ? new File([fieldText(v)], "statement.csv", { type: "text/csv" }) : fieldText(v));
        }
        request.body = form;
        request.contentType = undefined;
      } else if (value !== undefined && mediaType) {
        request.body = mediaType === "application/x-www-form-urlencoded" ? formEncoded(value) : JSON.stringify(value);
      }
      // Counterexamples print as the request line, not as the whole operation object.
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}

const describeRequest = (r: FuzzRequest) =>
  `${r.op.method.toUpperCase()} ${r.path}${r.query.length ? `?${new URLSearchParams(r.query)}` : ""} [${r.mutation}] ${r.contentType ?? "(no content type)"} ${typeof r.body === "string" ? r.body.slice(0, 300) : r.body ? "(form)" : "(no body)"}`;

async function setUpPools() {
  const receiver = `${inject("webhookReceiverUrl")}/fuzz`;
  const partner = await partnerWithKeys();
  const lender = await lenderWithKeys();
  const lead = await call("POST", "/partner/v1/leads", { key: partner.sandbox.key, body: { country: "GB", business: { name: "Fuzz Ltd" } } });
  const partnerHook = await call("POST", "/partner/v1/webhooks", { key: partner.sandbox.key, body: { url: receiver } });
  const deal = await call("POST", "/v1/test/deals", { key: lender.sandbox.key, body: {} });
  const lenderHook = await call("POST", "/v1/webhooks", { key: lender.sandbox.key, body: { url: receiver } });
  for (const res of [lead, partnerHook, deal, lenderHook]) expect(res.status, res.text).toBe(201);
  return {
    // `month` (the commission statement's path) is a pattern the generator cannot draw: this month and the last.
    partner: { id: [lead.body.id, partnerHook.body.id], name: ["revenue-bands", "company-types"], month: [new Date().toISOString().slice(0, 7), "2026-01"] } as Pools,
    lender: { ref: [deal.body.reference ?? deal.body.ref], id: [lenderHook.body.id] } as Pools,
  };
}


/**
 * A generated value as one form field. Mutations produce nested and null-prototype objects, which
 * `String()` cannot turn into text (it throws "Cannot convert object to primitive value" in the
 * generator, not in the service, as a multipart body did on 2026-11-26): anything but a string is
 * sent as its JSON text.
 */
const fieldText = (v: unknown) => (typeof v === "string" ? v : String(JSON.stringify(v)));

/** A generated value as a form body: an object's entries as fields, anything else as one field. */
function formEncoded(value: unknown): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return new URLSearchParams({ value: fieldText(value) }).toString();
  return new URLSearchParams(Object.entries(value).map(([k, v]): [string, string] => [k, fieldText(v)])).toString();
}

describe("fuzzing both API documents", () => {
  const parameters = fuzzParameters(150);

  it("answers every generated and mutated request as the documents declare, never with a 5xx", async () => {
    const { documents, operations } = await contract();
    const pools = await setUpPools();
    const ops = operations.filter((o) => o.api === "partner" || o.api === "lender");
    const documentOf = (op: Operation) => documents.find((d) => d.api === op.api)!.document;
    const requests = fc.constantFrom(...ops).chain((op) => requestFor(op, documentOf(op), op.api === "partner" ? pools.partner : pools.lender));

    // Fresh keys every 50 requests per API keep the per-key limit (120 a minute) out of the answers.
    const keys = { partner: "", lender: "" };
    const used = { partner: 0, lender: 0 };
    const keyFor = async (api: "partner" | "lender") => {
      if (used[api]++ % 50 === 0) keys[api] = (api === "partner" ? await partnerWithKeys() : await lenderWithKeys()).sandbox.key;
      return keys[api];
    };
    const seen = new Map<string, number>();

    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const api = request.op.api as "partner" | "lender";
        const key = request.op.operation.security?.length ? await keyFor(api) : undefined;
        const url = `${request.path}${request.query.length ? `?${new URLSearchParams(request.query)}` : ""}`;
        const res = await call(request.op.method.toUpperCase(), url, { key, rawBody: request.body, contentType: request.contentType, unjudged: true });
        seen.set(String(res.status), (seen.get(String(res.status)) ?? 0) + 1);
        const problems = await contractProblems(request.op.method, url, res);
        if (res.status >= 500) problems.push(`answered ${res.status}`);
        if (problems.length > 0) throw new Error(`${describeRequest(request)}\n- ${problems.join("\n- ")}\nanswer: ${res.status} ${res.text.slice(0, 500)}`);
      }),
      parameters,
    );
    console.log(`fuzz: ${parameters.numRuns} requests, seed ${parameters.seed}, statuses ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
    // Not a vacuous run: some requests were accepted and some refused.
    expect([...seen.keys()].some((s) => s.startsWith("2")), JSON.stringify(Object.fromEntries(seen))).toBe(true);
    expect([...seen.keys()].some((s) => s.startsWith("4")), JSON.stringify(Object.fromEntries(seen))).toBe(true);
  }, fuzzTimeout(parameters.numRuns, 150));
});
