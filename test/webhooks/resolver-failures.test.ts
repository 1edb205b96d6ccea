/**
 * Whose fault a failed lookup is, through the whole app in workerd, against the
 * suite's stand-in DNS-over-HTTPS resolver (support/receiver.mjs) made to fail
 * the ways a real one does. A resolver that cannot answer is 503
 * `resolver_unavailable` with Retry-After and nothing saved; a name that does
 * not exist or resolves to a refused address stays 400 naming `url`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../src/lib/env";
import { dohTimeoutFrom } from "../../src/services/webhooks/dns-over-https";
import { call, type ApiResponse } from "../helpers/api";
import { contractProblems } from "../helpers/contract";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { base, callWith, register, setDns, type Api, type DnsFailure } from "./support/webhooks";

const hostName = (label: string) => `${label}-${crypto.randomUUID()}.example.test`;

function expectRetryLater(res: ApiResponse) {
  expectProblem(res, 503, "resolver_unavailable");
  expect(res.headers.get("Retry-After")).toBe("10");
  expect(res.body.error.field).toBeUndefined();
  expect(res.body.detail).toContain("DNS resolver");
}

// The suite's resolver timeout (DOH_TIMEOUT_MS in vitest.config.mts, 1 s; 3 s in a deployment): a
// hanging resolver is given up on after it. test/unit/webhooks/dns-timeout.test.ts checks the default.
const timeoutWords = `no answer within ${dohTimeoutFrom((env as Bindings).DOH_TIMEOUT_MS) / 1000} second`;

const keysOf = (api: Api) => (api === "partner" ? partnerWithKeys() : lenderWithKeys());

describe.each(["partner", "lender"] as const)("%s webhook registration while the resolver fails", (api) => {
  it.each([
    ["times out", { A: "hang", AAAA: "hang" }, timeoutWords],
    ["answers SERVFAIL", { A: "servfail", AAAA: "servfail" }, "SERVFAIL"],
    ["answers REFUSED", { A: "refused" }, "REFUSED"],
    ["answers HTTP 502", { AAAA: "http-502" }, "HTTP 502"],
    ["answers something that is not DNS JSON", { A: "garbage" }, "could not be read"],
  ] as [string, { A?: DnsFailure; AAAA?: DnsFailure }, string][])("is 503 resolver_unavailable when the resolver %s, and nothing is saved", async (_label, fail, why) => {
    const { live } = await keysOf(api);
    const name = hostName("flaky");
    await setDns(name, { A: ["93.184.216.34"], AAAA: [], fail });
    const res = await call("POST", `${base(api)}/webhooks`, { key: live.key, body: { url: `https://${name}/hook` } });
    expectRetryLater(res);
    expect(res.body.detail).toContain(why);
    expect((await call("GET", `${base(api)}/webhooks`, { key: live.key })).body.webhooks).toEqual([]);
  });

  it("is 503 when the resolver cannot be reached at all, and the same request succeeds once it can", async () => {
    const { live } = await keysOf(api);
    const body = { url: `https://${hostName("hooks")}/rfs` };
    // Nothing listens on port 1 of this machine: the connection is refused.
    const down = await callWith({ DOH_URL: "http://127.0.0.1:1/dns-query" }, "POST", `${base(api)}/webhooks`, { key: live.key, body });
    expect(await contractProblems("POST", `${base(api)}/webhooks`, down)).toEqual([]);
    expectRetryLater(down);
    expect(down.body.detail).toContain("could not be reached");
    const retried = await call("POST", `${base(api)}/webhooks`, { key: live.key, body });
    expect(retried.status).toBe(201);
  });

  it("is 503 on a changed url while the resolver fails, and the endpoint keeps its url", async () => {
    const { live } = await keysOf(api);
    const before = await register(api, live.key, { url: `https://${hostName("stable")}/hook` });
    const name = hostName("moving");
    await setDns(name, { fail: { A: "servfail", AAAA: "servfail" } });
    const res = await call("PATCH", `${base(api)}/webhooks/${before.id}`, { key: live.key, body: { url: `https://${name}/hook`, active: false } });
    expectRetryLater(res);
    const after = await call("GET", `${base(api)}/webhooks/${before.id}`, { key: live.key });
    expect(after.body).toMatchObject({ url: before.url, active: true });
  });

  it("stays 400 naming url when the name does not exist (NXDOMAIN)", async () => {
    const { live } = await keysOf(api);
    const res = await call("POST", `${base(api)}/webhooks`, { key: live.key, body: { url: `https://nxdomain.${hostName("gone")}/hook` } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("url");
    expect(res.body.detail).toContain("does not exist (NXDOMAIN)");
    expect(res.headers.get("Retry-After")).toBeNull();
  });

  it("stays 400 naming url when the name exists but has no address", async () => {
    const { live } = await keysOf(api);
    const name = hostName("empty");
    await setDns(name, { A: [], AAAA: [] });
    const res = await call("POST", `${base(api)}/webhooks`, { key: live.key, body: { url: `https://${name}/hook` } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("url");
    expect(res.body.detail).toContain("does not resolve to any address");
  });

  it("stays 400 naming url when one lookup finds a refused address, even while the other fails", async () => {
    const { live } = await keysOf(api);
    const name = hostName("inside");
    await setDns(name, { A: ["10.1.2.3"], fail: { AAAA: "hang" } });
    const res = await call("POST", `${base(api)}/webhooks`, { key: live.key, body: { url: `https://${name}/hook` } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("url");
    expect(res.body.detail).toContain("private address");
    expect(res.body.detail).toContain("10.1.2.3");
  });

  it("is 503, not a pass, when one lookup answers a public address and the other fails", async () => {
    const { live } = await keysOf(api);
    const name = hostName("half");
    await setDns(name, { A: ["93.184.216.34"], fail: { AAAA: "servfail" } });
    expectRetryLater(await call("POST", `${base(api)}/webhooks`, { key: live.key, body: { url: `https://${name}/hook` } }));
  });

  it("stays 400 naming url when the name resolves to an address hidden in IPv6 (NAT64 of a private IPv4)", async () => {
    const { live } = await keysOf(api);
    const name = hostName("nat64");
    await setDns(name, { A: [], AAAA: ["64:ff9b::a9fe:a9fe"] });
    const res = await call("POST", `${base(api)}/webhooks`, { key: live.key, body: { url: `https://${name}/hook` } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("url");
    expect(res.body.detail).toContain("link local address");
  });
});

describe("a send while the resolver fails", () => {
  it("records a network error, not an address refusal, and sends nothing", async () => {
    const { live } = await lenderWithKeys();
    const name = hostName("later");
    const { id } = await register("lender", live.key, { url: `https://${name}/hook` });
    await setDns(name, { fail: { A: "servfail", AAAA: "servfail" } });
    const res = await call("POST", `/v1/webhooks/${id}/test`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body.attempts).toEqual([expect.objectContaining({ status_code: null, error: expect.stringMatching(/^network_error: the DNS resolver could not be asked/) })]);
  });
});
