import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { DeliveryMessage } from "../../src/services/webhooks/dispatch";
import { call } from "../helpers/api";
import { captureLogs, type LogCapture } from "../helpers/logs";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { consumeLookups, settle, ukLead } from "../registers/lookups-support";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { inData } from "../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

let logs: LogCapture;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => logs.restore());

/** A queue that takes messages and does nothing with them: the test plays the consumer. */
const idleQueue = {
  async send(_body: DeliveryMessage) {},
  async sendBatch(_messages: { body: DeliveryMessage }[]) {},
} as unknown as Queue;

describe("webhook deliveries are logged, without URL or payload", () => {
  it("the queue consumer logs each attempt: event, endpoint, attempt, status code, outcome, duration", async () => {
    const { organisation, live } = await partnerWithKeys();
    const receiver = receiverBucket();
    // The receiver's own token in the URL's path and query: neither may reach the logs.
    const hook = await register("partner", live.key, { url: receiver.url("status-500", "?token=receiver-own-token"), events: ["lead.submitted"] });
    const lead = await createLead(live.key);
    expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key })).status).toBe(200);
    const { deliveryIds } = await dispatch();
    const [deliveryId] = deliveryIds;
    await consume([deliveryId]);

    const [line] = logs.of("webhook_delivery").filter((l) => l.delivery_id === deliveryId);
    const { event_id } = (await inData.prepare("select event_id from webhook_deliveries where id = ?").bind(deliveryId).first<{ event_id: string }>())!;
    expect(line).toMatchObject({
      level: "warn",
      path: "queue",
      event_id,
      event_type: "lead.submitted",
      endpoint_id: hook.id,
      organisation_id: organisation.id,
      environment: "live",
      attempt: 1,
      result: "response",
      status_code: 500,
      outcome: "retry",
      retry_in_s: 60,
    });
    expect(typeof line.duration_ms).toBe("number");
    const all = logs.raw.join("\n");
    expect(all).not.toContain("receiver-own-token");
    expect(all).not.toContain(receiver.url());
    expect(all).not.toContain(hook.secret);
    expect(all).not.toContain("ada@example.com");
  });

  it("the first attempt after the write logs its line as such", async () => {
    const { live } = await partnerWithKeys();
    const receiver = receiverBucket();
    const hook = await register("partner", live.key, { url: receiver.url(), events: ["lead.submitted"] });
    const lead = await createLead(live.key);
    const ctx = createExecutionContext();
    const res = await createApp().request(
      `http://api.test/partner/v1/leads/${lead.id}/submit`,
      { method: "POST", headers: { "X-API-Key": live.key } },
      { ...env, DISPATCH_AFTER_WRITE: "true", WEBHOOK_QUEUE: idleQueue },
      ctx,
    );
    expect(res.status).toBe(200);
    await waitOnExecutionContext(ctx);
    const lines = logs.of("webhook_delivery").filter((l) => l.endpoint_id === hook.id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", path: "first_attempt", attempt: 1, result: "response", status_code: 200, outcome: "succeeded", retry_in_s: null });
    expect(logs.raw.join("\n")).not.toContain(receiver.url());
  });
});

describe("register lookups are logged by the owner's id, never by number", () => {
  it("one line per lookup: kind, source, outcome, reason, duration", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000001", "GB100000001"));
    await settle(lead.id);

    const lines = logs.of("register_lookup").filter((l) => l.owner_id === lead.id);
    expect(lines.map((l) => [l.kind, l.outcome, l.reason, l.stored, l.attempt])).toEqual(
      expect.arrayContaining([
        ["registry", "available", null, true, 1],
        ["vat", "valid", null, true, 1],
      ]),
    );
    for (const line of lines) {
      expect(line).toMatchObject({ level: "info", event: "register_lookup", environment: "sandbox", country: "GB", retry_in_s: null });
      expect(typeof line.source).toBe("string");
      expect(typeof line.duration_ms).toBe("number");
    }
    const all = logs.raw.join("\n");
    expect(all).not.toContain("00000001");
    expect(all).not.toContain("100000001");
    expect(all).not.toMatch(/SANDBOX TRADING/i);
  });

  it("a message for a lookup that was replaced is acknowledged and logged as skipped", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000001"));
    await settle(lead.id);
    // The row is answered: a late duplicate of its message asks nothing.
    const { lookup_id } = (await inData.prepare("select lookup_id from register_answers where owner_id = ?").bind(lead.id).first<{ lookup_id: string }>())!;
    await consumeLookups([{ owner_id: lead.id, kind: "registry", lookup_id }]);
    expect(logs.of("register_lookup").filter((l) => l.owner_id === lead.id && l.outcome === "skipped")).toEqual([
      { level: "info", event: "register_lookup", owner_id: lead.id, kind: "registry", outcome: "skipped", reason: "superseded" },
    ]);
  });
});
