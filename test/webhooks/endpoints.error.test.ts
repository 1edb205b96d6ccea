import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { callWith, receiverBucket, register, setDns } from "./support/webhooks";

/** Production configuration: no http, no loopback. */
const production = { ALLOW_PRIVATE_WEBHOOKS: "false" };

describe("webhook registration refusals", () => {
  it.each([
    ["an http url", "http://hooks.example.com/rfs"],
    ["a private address", "https://10.0.0.1/rfs"],
    ["a loopback address", "https://127.0.0.1/rfs"],
    ["a decimal loopback address", "https://2130706433/rfs"],
    ["an IPv4-mapped private address", "https://[::ffff:a00:1]/rfs"],
    ["the metadata address", "https://169.254.169.254/latest"],
    ["localhost", "https://localhost/rfs"],
    ["a name that does not resolve", `https://nxdomain.${crypto.randomUUID()}.test/rfs`],
    ["not a URL", "hooks.example.com"],
  ])("refuses %s with 400 invalid_request naming url", async (_label, url) => {
    const { live } = await lenderWithKeys();
    const res = await callWith(production, "POST", "/v1/webhooks", { key: live.key, body: { url } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("url");
  });

  it("refuses a name that resolves to a private address", async () => {
    const name = `internal-${crypto.randomUUID()}.example.test`;
    await setDns(name, { A: ["93.184.216.34"], AAAA: ["fd00::5"] });
    const { live } = await partnerWithKeys();
    const res = await callWith(production, "POST", "/partner/v1/webhooks", { key: live.key, body: { url: `https://${name}/hook` } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("url");
    expect(res.body.error.message).toContain("unique local");
  });

  // A resolver that cannot answer is 503 resolver_unavailable, not the caller's fault: resolver-failures.test.ts.

  it("accepts a public https name in production configuration", async () => {
    const { live } = await lenderWithKeys();
    const res = await callWith(production, "POST", "/v1/webhooks", { key: live.key, body: { url: `https://hooks-${crypto.randomUUID()}.example.test/rfs` } });
    expect(res.status).toBe(201);
  });

  it.each([
    ["an unknown event", { events: ["deal.exploded"] }, "events.0"],
    ["a partner event on the lender API", { events: ["deal.updated", "lead.funded"] }, "events.1"],
    ["an empty event list", { events: [] }, "events"],
    ["a bad payload mode", { payload: "everything" }, "payload"],
    ["an unknown key", { secret: "whsec_mine" }, "secret"],
    ["a non-string url", { url: 42 }, "url"],
  ])("refuses %s with 400 invalid_request", async (_label, extra, field) => {
    const { live } = await lenderWithKeys();
    const res = await call("POST", "/v1/webhooks", { key: live.key, body: { url: receiverBucket().url(), ...extra } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });

  it.each([
    ["a description of 201 characters", "x".repeat(201), "<=200 characters"],
    ["a description with a line break", "Production\nCRM", "control, invisible or text-direction"],
    ["a description with a tab", "Production\tCRM", "control, invisible or text-direction"],
    ["a description with a NUL", "Production\u0000CRM", "control, invisible or text-direction"],
    ["a description with a right-to-left override", "Production \u202eMRC", "control, invisible or text-direction"],
    ["a description that is not text", 42, null],
  ])("refuses %s with 400 invalid_request naming description, on both APIs, registering and changing", async (_label, description, says) => {
    for (const [kind, api] of [
      ["lender", "/v1"],
      ["partner", "/partner/v1"],
    ] as const) {
      const { live } = kind === "lender" ? await lenderWithKeys() : await partnerWithKeys();
      const res = await call("POST", `${api}/webhooks`, { key: live.key, body: { url: receiverBucket().url(), description } });
      expectProblem(res, 400, "invalid_request");
      expect(res.body.error.field).toBe("description");
      if (says) expect(res.body.error.message).toContain(says);
      expect((await call("GET", `${api}/webhooks`, { key: live.key })).body.webhooks).toEqual([]);

      const { id } = await register(kind, live.key, { url: receiverBucket().url(), description: "Production CRM" });
      const patched = await call("PATCH", `${api}/webhooks/${id}`, { key: live.key, body: { description } });
      expectProblem(patched, 400, "invalid_request");
      expect(patched.body.error.field).toBe("description");
      expect((await call("GET", `${api}/webhooks/${id}`, { key: live.key })).body.description).toBe("Production CRM");
    }
  });

  it("refuses a lender event on the partner API and names why", async () => {
    const { live } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/webhooks", { key: live.key, body: { url: receiverBucket().url(), events: ["deal.created"] } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("events.0");
    expect(res.body.error.message).toContain("lender API event");
  });

  it("refuses a missing url and a missing body", async () => {
    const { live } = await lenderWithKeys();
    const res = await call("POST", "/v1/webhooks", { key: live.key, body: {} });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("url");
    expectProblem(await call("POST", "/v1/webhooks", { key: live.key }), 400, "invalid_request");
  });

  it("refuses bad changes the same way", async () => {
    const { live } = await lenderWithKeys();
    const { id } = await register("lender", live.key, { url: receiverBucket().url() });
    const http = await callWith(production, "PATCH", `/v1/webhooks/${id}`, { key: live.key, body: { url: "http://hooks.example.com/x" } });
    expectProblem(http, 400, "invalid_request");
    expect(http.body.error.field).toBe("url");
    const unknown = await call("PATCH", `/v1/webhooks/${id}`, { key: live.key, body: { secret: "x" } });
    expectProblem(unknown, 400, "invalid_request");
    expect(unknown.body.error.field).toBe("secret");
    const active = await call("PATCH", `/v1/webhooks/${id}`, { key: live.key, body: { active: "yes" } });
    expectProblem(active, 400, "invalid_request");
    expect(active.body.error.field).toBe("active");
  });
  // No key: test/security.test.ts, for every operation of both APIs.
});
