/**
 * The fixtures the two walks over every keyed POST share (test/idempotency.test.ts: replay and reuse;
 * test/security/idempotency-every-post.test.ts: faults around the write): the APIs' bases,
 * row counts, a multipart upload with a fixed boundary, and the resources a POST acts on.
 */
import { env } from "cloudflare:workers";
import { call } from "./api";
import { lenderWithKeys, partnerWithKeys } from "./seed";
import { pdfBytes } from "../lender/helpers";
import { submittedLead, twoLenderPanel } from "../routing/helpers";
import { receiverBucket } from "../webhooks/support/webhooks";
import { countInData, inData } from "./data-db";

export type ApiName = "partner" | "lender" | "admin";
export const BASE: Record<ApiName, string> = { partner: "/partner/v1", lender: "/v1", admin: "/admin/v1" };

export const countOf = countInData;
export const eventsOf = (organisationId: string) => countOf("select count(*) as n from events where organisation_id = ?", organisationId);

export const read = async (key: string, path: string) => {
  const res = await call("GET", path, { key });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
  return res.body;
};

/** A multipart PDF upload with a fixed boundary, so a retry's bytes (and hash) are the first's. */
export const pdfUpload = (boundary: string) =>
  [
    `--${boundary}\r\nContent-Disposition: form-data; name="document_type"\r\n\r\nbank_statements\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.pdf"\r\nContent-Type: application/pdf\r\n\r\n${new TextDecoder().decode(pdfBytes())}\r\n`,
    `--${boundary}--\r\n`,
  ].join("");

export async function sandboxSubmittedLead() {
  await twoLenderPanel();
  const partner = await partnerWithKeys();
  const { lead } = await submittedLead(partner.sandbox.key);
  return { partner, key: partner.sandbox.key, lead };
}

export async function testDeal() {
  const lender = await lenderWithKeys();
  const res = await call("POST", "/v1/test/deals", { key: lender.sandbox.key });
  if (res.status !== 201) throw new Error(`test deal: ${res.status} ${res.text}`);
  return { lender, key: lender.sandbox.key, ref: res.body.ref as string };
}

export async function webhookOf(api: "partner" | "lender") {
  const keys = api === "partner" ? await partnerWithKeys() : await lenderWithKeys();
  const key = keys.sandbox.key;
  const res = await call("POST", `${BASE[api]}/webhooks`, { key, body: { url: receiverBucket().url() } });
  if (res.status !== 201) throw new Error(`webhook: ${res.status} ${res.text}`);
  return { key, organisationId: keys.organisation.id, id: res.body.id as string };
}

export const deliveriesOf = (endpointId: string) => countOf("select count(*) as n from webhook_deliveries where endpoint_id = ?", endpointId);

/** An endpoint with one delivery to retry: its test ping's. */
export async function pingedWebhookOf(api: "partner" | "lender") {
  const hook = await webhookOf(api);
  const ping = await call("POST", `${BASE[api]}/webhooks/${hook.id}/test`, { key: hook.key });
  if (ping.status >= 300) throw new Error(`test ping: ${ping.status} ${ping.text}`);
  const delivery = await inData.prepare("select id from webhook_deliveries where endpoint_id = ?").bind(hook.id).first<{ id: string }>();
  if (!delivery) throw new Error("the test ping left no delivery to retry");
  return { ...hook, deliveryId: delivery.id };
}
