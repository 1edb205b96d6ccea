// The SDK's verifyWebhook against signatures made by the service's own signing module, in workerd.
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationErrorCode } from "../../../sdk/src/index.js";
import { describe, expect, it } from "vitest";
import { generateEndpointSecret, signatureHeaders } from "../../../src/domain/webhooks/signature";

const body = JSON.stringify({ id: "evt_1", event: "deal.updated", created_at: "2026-11-22T10:00:00Z", environment: "live", livemode: true, api_version: "2026-09", data: { reference: "RF-1", ref: "RF-1", test: false, update: { status: "funded", reason: null, funded_amount: 1 }, payload_mode: "reference" } });
const now = () => Math.floor(Date.now() / 1000);

async function signed(secrets: string[], timestamp = now(), payload = body) {
  return signatureHeaders({ secrets, eventId: "evt_1", body: payload, timestamp });
}

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationErrorCode> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).code;
}

const only = (headers: Record<string, string>, names: string[]) => Object.fromEntries(Object.entries(headers).filter(([k]) => names.includes(k)));
const SERVICE = ["X-Service-Signature-256"];
const STANDARD = ["webhook-id", "webhook-timestamp", "webhook-signature"];

describe("verifyWebhook", () => {
  it("returns the typed event when all headers are present, from a record or a Headers object", async () => {
    const secret = generateEndpointSecret();
    const headers = await signed([secret]);
    const event = await verifyWebhook(body, headers, secret);
    expect(event).toEqual(JSON.parse(body));
    if (event.event === "deal.updated") expect(event.data.update.status).toBe("funded");
    expect((await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret)).id).toBe("evt_1");
  });

  it("accepts either scheme alone", async () => {
    const secret = generateEndpointSecret();
    const headers = await signed([secret]);
    expect((await verifyWebhook(body, only(headers, SERVICE), secret)).id).toBe("evt_1");
    expect((await verifyWebhook(body, only(headers, STANDARD), secret)).id).toBe("evt_1");
  });

  it("accepts every v1 during a rotation, with the new or the old secret", async () => {
    const [next, previous] = [generateEndpointSecret(), generateEndpointSecret()];
    const headers = await signed([next, previous]);
    expect(headers["X-Service-Signature-256"].match(/v1=/g)).toHaveLength(2);
    for (const scheme of [SERVICE, STANDARD]) {
      expect((await verifyWebhook(body, only(headers, scheme), previous)).id).toBe("evt_1");
      expect((await verifyWebhook(body, only(headers, scheme), next)).id).toBe("evt_1");
    }
    // A receiver rolling the rotation out may hold both.
    expect((await verifyWebhook(body, headers, [generateEndpointSecret(), previous])).id).toBe("evt_1");
  });

  it("refuses a wrong secret, an altered body, an altered event id and a malformed header with invalid_signature", async () => {
    const secret = generateEndpointSecret();
    const headers = await signed([secret]);
    expect(await refusal(verifyWebhook(body, headers, generateEndpointSecret()))).toBe("invalid_signature");
    expect(await refusal(verifyWebhook(body.replace("funded", "declined"), headers, secret))).toBe("invalid_signature");
    expect(await refusal(verifyWebhook(body, { ...only(headers, STANDARD), "webhook-id": "evt_2" }, secret))).toBe("invalid_signature");
    expect(await refusal(verifyWebhook(body, { "X-Service-Signature-256": `t=${now()},v1=zz` }, secret))).toBe("invalid_signature");
  });

  it("refuses a timestamp outside the tolerance, in both schemes, and honours a custom tolerance", async () => {
    const secret = generateEndpointSecret();
    const stale = await signed([secret], now() - 301);
    for (const scheme of [SERVICE, STANDARD]) {
      expect(await refusal(verifyWebhook(body, only(stale, scheme), secret))).toBe("timestamp_outside_tolerance");
      expect((await verifyWebhook(body, only(stale, scheme), secret, { toleranceSeconds: 600 })).id).toBe("evt_1");
    }
    const future = await signed([secret], now() + 301);
    expect(await refusal(verifyWebhook(body, future, secret))).toBe("timestamp_outside_tolerance");
  });

  it("refuses a request without signature headers and a signed body that is not an event", async () => {
    const secret = generateEndpointSecret();
    expect(await refusal(verifyWebhook(body, { "content-type": "application/json" }, secret))).toBe("missing_signature");
    expect(await refusal(verifyWebhook("[1,2]", await signed([secret], now(), "[1,2]"), secret))).toBe("invalid_body");
    expect(await refusal(verifyWebhook("not json", await signed([secret], now(), "not json"), secret))).toBe("invalid_body");
  });
});
