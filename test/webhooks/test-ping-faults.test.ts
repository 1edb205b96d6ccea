/**
 * Issue 21 review leftover: a test ping whose attempt could not be recorded left its delivery
 * `pending` for ever (nothing schedules a ping). The delivery is now written with its attempt in one
 * batch, so a failure of that batch leaves no delivery at all, the key free and the 500 saying nothing
 * was saved; the retry with the same key records one settled ping.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { callWithEnv, faultyEnv } from "../helpers/faults";
import { expectProblem, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { base, receiverBucket, register, type Api } from "./support/webhooks";

const statesOf = async (endpointId: string) =>
  (await env.DB.prepare("select state from webhook_deliveries where endpoint_id = ?").bind(endpointId).all<{ state: string }>()).results.map((r) => r.state);

describe.each(["partner", "lender"] as const)("POST %s …/webhooks/{id}/test when recording the attempt fails", (api: Api) => {
  it("leaves no delivery pending: none is written, the key stays free, and the retry records one settled ping", async () => {
    const { live } = api === "partner" ? await partnerWithKeys() : await lenderWithKeys();
    const receiver = receiverBucket();
    const { id: endpointId } = await register(api, live.key, { url: receiver.url("ok") });
    const idempotencyKey = `ping-fault-${crypto.randomUUID()}`;
    const path = `${base(api)}/webhooks/${endpointId}/test`;

    // The batch that writes the attempt fails; the ping itself went out.
    const faults = faultyEnv({ d1: (_call, operation, query) => operation === "batch" && /webhook_attempts/.test(query) });
    const failed = await callWithEnv(faults.env, "POST", path, { key: live.key, headers: { "Idempotency-Key": idempotencyKey } });
    expect(faults.switches.d1.failed).toHaveLength(1);
    expectProblem(failed, 500, "internal_error");
    expect(failed.body.detail).toMatch(/before anything was saved; it is safe to retry/);
    expect(await receiver.records()).toHaveLength(1);
    // No delivery at all: never one left pending that nothing would settle.
    expect(await statesOf(endpointId)).toEqual([]);

    const retried = await call("POST", path, { key: live.key, headers: { "Idempotency-Key": idempotencyKey } });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
    expect(retried.body).toMatchObject({ event: "ping", state: "succeeded", last_status_code: 200 });
    expect(retried.body.attempts).toEqual([expect.objectContaining({ status_code: 200, trigger: "manual" })]);
    expect(await statesOf(endpointId)).toEqual(["succeeded"]);
  });
});
