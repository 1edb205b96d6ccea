/**
 * The one place the webhook signature scheme lives. Three signatures travel on
 * every attempt so receivers can verify with whatever they already have:
 *  - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256(UTF-8 of the whole secret, raw body).
 *    Kept because the specification defines it; it has no replay protection.
 *  - `X-Service-Signature-256: t=<ts>,v1=<hex>[,v1=<hex>]`: Stripe's scheme,
 *    HMAC-SHA256(UTF-8 of the whole secret, "<t>.<raw body>"), one `v1` per active secret.
 *  - Standard Webhooks: `webhook-signature: v1,<base64>[ v1,<base64>]` over
 *    "<event id>.<t>.<raw body>", keyed with the base64-decoded part after `whsec_`.
 * The body is never re-serialised here: callers pass the stored bytes.
 */
import { fromBase64, hmacSha256, randomBytes, toBase64, toHex } from "../../lib/crypto";

export const SECRET_PREFIX = "whsec_";

/** `whsec_` + base64 of 32 random bytes. */
export const generateEndpointSecret = () => `${SECRET_PREFIX}${toBase64(randomBytes(32))}`;

/** The key Standard Webhooks uses: the bytes after `whsec_`. */
const standardKey = (secret: string) => fromBase64(secret.slice(SECRET_PREFIX.length));

export interface SignatureInput {
  /** Active secrets, the current one first; during a rotation the previous one follows. */
  secrets: string[];
  /** The event id (`evt_…`), the same on every attempt. */
  eventId: string;
  /** The stored body, exactly the bytes sent. */
  body: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
}

export async function signatureHeaders({ secrets, eventId, body, timestamp }: SignatureInput): Promise<Record<string, string>> {
  if (secrets.length === 0) throw new Error("an endpoint always has a current secret");
  const t = String(timestamp);
  const plain = toHex(await hmacSha256(secrets[0], body));
  const stripeStyle = await Promise.all(secrets.map(async (s) => `v1=${toHex(await hmacSha256(s, `${t}.${body}`))}`));
  const standard = await Promise.all(secrets.map(async (s) => `v1,${toBase64(await hmacSha256(standardKey(s), `${eventId}.${t}.${body}`))}`));
  return {
    "X-Service-Signature": `sha256=${plain}`,
    "X-Service-Timestamp": t,
    "X-Service-Signature-256": `t=${t},${stripeStyle.join(",")}`,
    "webhook-id": eventId,
    "webhook-timestamp": t,
    "webhook-signature": standard.join(" "),
  };
}
