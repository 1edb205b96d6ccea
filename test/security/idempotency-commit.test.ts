/**
 * Issue 21 item 2: the Idempotency-Key is spent in the same D1 batch as the write it protects. A
 * failure after the write committed (here: the read-back after the batch) cannot free the key, so the
 * retry does not make a second lead; a failure of the batch itself leaves neither the lead nor the key.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { call } from "../helpers/api";
import { callWithEnv, faultyEnv } from "../helpers/faults";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";

/** Fails the first D1 call after the first batch (`afterBatch`) or the batch itself. */
function faultAround(where: "afterBatch" | "batch") {
  let batched = false;
  return faultyEnv({
    d1: (_call, operation) => {
      if (where === "batch") return operation === "batch";
      if (batched) return (batched = false), true;
      if (operation === "batch") batched = true;
      return false;
    },
  }).env;
}

const leadCount = async (organisationId: string) =>
  (await env.DB.prepare("select count(*) as n from leads where organisation_id = ?").bind(organisationId).first<{ n: number }>())!.n;

describe("issue 21 item 2: the key and the write in one batch", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("item 2: a failure after the committed write keeps the key; the retry makes no second lead", async () => {
    const partner = await partnerWithKeys();
    const body = completeUkLead();
    const headers = { "Idempotency-Key": `lead-${crypto.randomUUID()}` };
    const first = await callWithEnv(faultAround("afterBatch"), "POST", "/partner/v1/leads", { key: partner.live.key, body, headers });
    // The call after the batch is the storing of the answer: the answer stands, the key stays spent.
    expect(first.status).toBe(201);
    expect(await leadCount(partner.organisation.id)).toBe(1);

    const retry = await call("POST", "/partner/v1/leads", { key: partner.live.key, body, headers, unjudged: true });
    // The retry is told the change was saved, not to repeat it: no second lead.
    expect(retry.status).toBe(500);
    expect(retry.body.detail).toContain("was saved");
    expect(await leadCount(partner.organisation.id)).toBe(1);
  });

  it("item 2: a failed batch leaves neither the lead nor the key; the retry creates the lead once and replays it", async () => {
    const partner = await partnerWithKeys();
    const body = completeUkLead();
    const headers = { "Idempotency-Key": `lead-${crypto.randomUUID()}` };
    const failed = await callWithEnv(faultAround("batch"), "POST", "/partner/v1/leads", { key: partner.live.key, body, headers });
    expect(failed.status).toBe(500);
    expect(await leadCount(partner.organisation.id)).toBe(0);
    const retry = await call("POST", "/partner/v1/leads", { key: partner.live.key, body, headers });
    expect(retry.status).toBe(201);
    const replay = await call("POST", "/partner/v1/leads", { key: partner.live.key, body, headers });
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(retry.body.id);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await leadCount(partner.organisation.id)).toBe(1);
  });
});
