import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LENDER_EVENT_VALUES, PARTNER_EVENT_VALUES } from "../../src/domain/reference/values";
import { call, SANDBOX } from "../helpers/api";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { receiverBucket, register } from "./support/webhooks";
import { inData } from "../helpers/data-db";

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe("webhook endpoints", () => {
  it("registers a lender endpoint with every lender event, full payloads and a secret shown once", async () => {
    const { live } = await lenderWithKeys();
    const url = receiverBucket().url();
    const res = await call("POST", "/v1/webhooks", { key: live.key, body: { url } });
    expect(res.status).toBe(201);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Location")).toContain(`/v1/webhooks/${res.body.id}`);
    expect(res.body).toMatchObject({
      url,
      events: [...LENDER_EVENT_VALUES],
      active: true,
      last_success_at: null,
      last_failure_at: null,
      failure_count: 0,
      payload: "full",
      environment: "live",
      host: "production",
      deactivated_reason: null,
    });
    expect(res.body.secret).toMatch(SECRET);
    expect(atob(res.body.secret.slice(6))).toHaveLength(32);

    const listed = await call("GET", "/v1/webhooks", { key: live.key });
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks).toHaveLength(1);
    expect(listed.body.webhooks[0].secret).toBeUndefined();
    const one = await call("GET", `/v1/webhooks/${res.body.id}`, { key: live.key });
    expect(one.body.secret).toBeUndefined();
    expect(one.body.id).toBe(res.body.id);
  });

  it("registers a partner endpoint with chosen events and reference payloads on the sandbox host", async () => {
    const { sandbox } = await partnerWithKeys();
    const body = await register("partner", sandbox.key, { url: receiverBucket().url(), events: ["lead.funded", "lead.funded", "document.rejected"], payload: "reference" }, SANDBOX);
    expect(body).toMatchObject({ events: ["lead.funded", "document.rejected"], payload: "reference", environment: "sandbox", host: "sandbox" });
    const defaults = await register("partner", sandbox.key, { url: receiverBucket().url() });
    expect(defaults.events).toEqual([...PARTNER_EVENT_VALUES]);
  });

  it("stores the secret sealed, never plain", async () => {
    const { live } = await lenderWithKeys();
    const body = await register("lender", live.key, { url: receiverBucket().url() });
    const row = await inData.prepare("SELECT * FROM webhook_endpoints WHERE id = ?").bind(body.id).first<Record<string, unknown>>();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(body.secret);
    expect(stored).not.toContain(body.secret.slice(6));
    expect(row?.secret_sealed).toMatch(/^v1\./);
  });

  it("changes url, events, payload and active, and deletes with 204", async () => {
    const { live } = await lenderWithKeys();
    const { id } = await register("lender", live.key, { url: receiverBucket().url() });
    const url = receiverBucket().url("ok");
    const patched = await call("PATCH", `/v1/webhooks/${id}`, { key: live.key, body: { url, events: ["deal.updated"], payload: "reference", active: false } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ url, events: ["deal.updated"], payload: "reference", active: false, deactivated_reason: "manual" });
    const reactivated = await call("PATCH", `/v1/webhooks/${id}`, { key: live.key, body: { active: true } });
    expect(reactivated.body).toMatchObject({ active: true, deactivated_reason: null, failure_count: 0 });

    const deleted = await call("DELETE", `/v1/webhooks/${id}`, { key: live.key });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await call("GET", `/v1/webhooks/${id}`, { key: live.key })).status).toBe(404);
    expect((await call("GET", "/v1/webhooks", { key: live.key })).body.webhooks).toEqual([]);
  });

  it.each([
    ["lender", "/v1"],
    ["partner", "/partner/v1"],
  ] as const)("keeps a %s endpoint's description: given at registration (trimmed), read back, changed, left and cleared by PATCH", async (kind, api) => {
    const { live } = kind === "lender" ? await lenderWithKeys() : await partnerWithKeys();
    const plain = await register(kind, live.key, { url: receiverBucket().url() });
    expect(plain.description).toBeNull();

    const created = await call("POST", `${api}/webhooks`, { key: live.key, body: { url: receiverBucket().url(), description: "  Production CRM  " } });
    expect(created.status).toBe(201);
    expect(created.body.description).toBe("Production CRM");
    const id = created.body.id;
    expect((await call("GET", `${api}/webhooks/${id}`, { key: live.key })).body.description).toBe("Production CRM");
    const listed = (await call("GET", `${api}/webhooks`, { key: live.key })).body.webhooks;
    expect(listed.map((w: { id: string; description: string | null }) => [w.id, w.description])).toEqual([
      [id, "Production CRM"],
      [plain.id, null],
    ]);

    const longest = "Ä".repeat(200);
    const changed = await call("PATCH", `${api}/webhooks/${id}`, { key: live.key, body: { description: longest } });
    expect(changed.status).toBe(200);
    expect(changed.body.description).toBe(longest);
    // A change that does not name it leaves it.
    const other = await call("PATCH", `${api}/webhooks/${id}`, { key: live.key, body: { payload: "reference" } });
    expect(other.body).toMatchObject({ description: longest, payload: "reference" });
    // null clears it, and so does text that is empty once trimmed.
    expect((await call("PATCH", `${api}/webhooks/${id}`, { key: live.key, body: { description: null } })).body.description).toBeNull();
    await call("PATCH", `${api}/webhooks/${id}`, { key: live.key, body: { description: "Staging" } });
    expect((await call("PATCH", `${api}/webhooks/${id}`, { key: live.key, body: { description: "   " } })).body.description).toBeNull();
    const row = await inData.prepare("SELECT description FROM webhook_endpoints WHERE id = ?").bind(id).first<{ description: string | null }>();
    expect(row?.description).toBeNull();
  });

  it("rotates the secret: a new one is returned once", async () => {
    const { live } = await lenderWithKeys();
    const first = await register("lender", live.key, { url: receiverBucket().url() });
    const res = await call("POST", `/v1/webhooks/${first.id}/rotate-secret`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(SECRET);
    expect(res.body.secret).not.toBe(first.secret);
    expect((await call("GET", `/v1/webhooks/${first.id}`, { key: live.key })).body.secret).toBeUndefined();
  });

  it.each(["/v1", "/partner/v1"])("describes the webhook and event operations in %s/openapi.json", async (prefix) => {
    const res = await call("GET", `${prefix}/openapi.json`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(["/webhooks", "/webhooks/{id}", "/webhooks/{id}/rotate-secret", "/webhooks/{id}/deliveries", "/webhooks/{id}/deliveries/{delivery_id}/retry", "/events"]),
    );
  });
});
