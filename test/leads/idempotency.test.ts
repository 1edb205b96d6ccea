import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "./helpers";

const post = (key: string, body: unknown, idempotencyKey?: string) =>
  call("POST", "/partner/v1/leads", { key, body, headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {} });

async function count(key: string) {
  return (await call("GET", "/partner/v1/leads?limit=100", { key })).body.leads.length;
}

describe("Idempotency-Key on POST /partner/v1/leads", () => {
  it("answers the first response again for the same key and body", async () => {
    const { sandbox } = await partnerWithKeys();
    const body = completeUkLead();
    const first = await post(sandbox.key, body, "key-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await post(sandbox.key, body, "key-1");
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(again.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(await count(sandbox.key)).toBe(1);
  });

  it("treats the same JSON in another key order as the same body", async () => {
    const { sandbox } = await partnerWithKeys();
    const first = await call("POST", "/partner/v1/leads", { key: sandbox.key, rawBody: '{"country":"GB","partner_reference":"a"}', contentType: "application/json", headers: { "Idempotency-Key": "k" } });
    const again = await call("POST", "/partner/v1/leads", { key: sandbox.key, rawBody: '{ "partner_reference": "a", "country": "GB" }', contentType: "application/json", headers: { "Idempotency-Key": "k" } });
    expect(again.body.id).toBe(first.body.id);
  });

  it("refuses the same key with another body: 422 idempotency_key_reused", async () => {
    const { sandbox } = await partnerWithKeys();
    await post(sandbox.key, { country: "GB" }, "key-2");
    const res = await post(sandbox.key, { country: "US" }, "key-2");
    expectProblem(res, 422, "idempotency_key_reused");
    expect(await count(sandbox.key)).toBe(1);
  });

  it("scopes keys to the account and environment", async () => {
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    const fromA = await post(a.sandbox.key, { country: "GB" }, "shared");
    const fromB = await post(b.sandbox.key, { country: "GB" }, "shared");
    const fromLive = await post(a.live.key, { country: "GB" }, "shared");
    expect(fromB.status).toBe(201);
    expect(fromLive.status).toBe(201);
    expect(new Set([fromA.body.id, fromB.body.id, fromLive.body.id]).size).toBe(3);
    expect(fromB.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("keeps no record of a failed request, so a corrected retry with the key works", async () => {
    const { sandbox } = await partnerWithKeys();
    expectProblem(await post(sandbox.key, { country: "Germany" }, "key-3"), 400, "invalid_request");
    const fixed = await post(sandbox.key, { country: "GB" }, "key-3");
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("creates one lead when the same request races", async () => {
    const { sandbox } = await partnerWithKeys();
    const body = completeUkLead();
    const results = await Promise.all(Array.from({ length: 4 }, () => post(sandbox.key, body, "race")));
    const created = results.filter((r) => r.status === 201);
    // Each racer either gets the one lead (first or replayed) or is told the first is still running.
    for (const r of results) {
      if (r.status !== 201) expectProblem(r, 409, "idempotency_key_in_use");
    }
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(await count(sandbox.key)).toBe(1);
    const later = await post(sandbox.key, body, "race");
    expect(later.status).toBe(201);
    expect(later.body.id).toBe(created[0].body.id);
    expect(later.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("refuses a malformed key naming the header", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await post(sandbox.key, { country: "GB" }, "x".repeat(256));
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("header.Idempotency-Key");
  });

  it("creates a new lead for every request without a key", async () => {
    const { sandbox } = await partnerWithKeys();
    await post(sandbox.key, { country: "GB" });
    await post(sandbox.key, { country: "GB" });
    expect(await count(sandbox.key)).toBe(2);
  });
});

describe("Idempotency-Key on POST /partner/v1/leads/{id}/submit", () => {
  it("replays the first submit's answer", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = (await post(sandbox.key, completeUkLead())).body;
    const submit = () => call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key, headers: { "Idempotency-Key": "submit-1" } });
    const first = await submit();
    const again = await submit();
    expect(first.body.already_submitted).toBe(false);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });
});

describe("idempotency storage", () => {
  it("lets one claimer own a key until it expires", async () => {
    const { env } = await import("cloudflare:workers");
    const { database } = await import("../../src/db/client");
    const { claimIdempotencyKey, completeIdempotencyRecord, findIdempotencyRecord } = await import("../../src/db/identity/idempotency");
    const db = database(env.DB);
    const scopeKey = `org_x:sandbox:POST /partner/v1/leads:${crypto.randomUUID()}`;
    const lease = (token: string) => ({ scopeKey, token, committedUntil: 0 });
    const now = 1_800_000_000;
    const claims = await Promise.all(["t1", "t2", "t3"].map((t) => claimIdempotencyKey(db, lease(t), "h1", now, 60)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = ["t1", "t2", "t3"][claims.indexOf(true)];
    await completeIdempotencyRecord(db, lease(winner), { status: 201, body: "{}", headers: {} }, now + 86_400);
    expect(await claimIdempotencyKey(db, lease("t4"), "h2", now + 86_399, 60)).toBe(false);
    expect((await findIdempotencyRecord(db, scopeKey))?.requestHash).toBe("h1");
    // After 24 hours the key is free again.
    expect(await claimIdempotencyKey(db, lease("t5"), "h2", now + 86_401, 60)).toBe(true);
    expect((await findIdempotencyRecord(db, scopeKey))?.status).toBe(0);
  });
});
