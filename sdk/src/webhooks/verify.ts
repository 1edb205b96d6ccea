/**
 * Verifies a delivery of the service's webhooks and returns the typed event.
 *
 * Two schemes travel on every delivery; either one verifying is enough:
 *  - `X-Service-Signature-256: t=<unix>,v1=<hex>[,v1=<hex>]`: Stripe's scheme,
 *    HMAC-SHA256 keyed with the UTF-8 bytes of the whole `whsec_…` secret over `<t>.<raw body>`.
 *  - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>[ v1,<base64>]`,
 *    HMAC-SHA256 keyed with the base64-decoded part after `whsec_` over `<id>.<timestamp>.<raw body>`.
 * During a secret rotation a delivery carries one signature per active secret;
 * any of them matching is enough. Comparison is `crypto.subtle.verify`, which
 * compares in constant time. Runs wherever Web Crypto does (Node 20+, browsers, Workers, Deno, Bun).
 *
 * Pass the raw body exactly as received, before any JSON parsing.
 */
import type { WebhookEvent } from "./events.js";

export type WebhookVerificationErrorCode =
  /** Neither scheme's headers are present. */
  | "missing_signature"
  /** A signature matched, but its timestamp is further from now than the tolerance (a replay or a skewed clock). */
  | "timestamp_outside_tolerance"
  /** No signature matched any of the secrets (wrong secret, altered body or headers). */
  | "invalid_signature"
  /** The signature matched but the body is not a JSON event. */
  | "invalid_body";

export class WebhookVerificationError extends Error {
  readonly name = "WebhookVerificationError";
  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A Fetch `Headers`, or Node's `IncomingHttpHeaders`-like record (keys in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Largest accepted distance between the signed timestamp and now. Default 300 seconds. */
  toleranceSeconds?: number;
  /** For tests: the clock, in milliseconds. */
  now?: () => number;
}

const encoder = new TextEncoder();
type Bytes = Uint8Array<ArrayBuffer>;
/** Copied so the bytes are ArrayBuffer-backed under every runtime's typings. */
const utf8 = (text: string): Bytes => new Uint8Array(encoder.encode(text));
const SECRET_PREFIX = "whsec_";

function headerReader(headers: WebhookHeaders) {
  if (typeof (headers as Headers).get === "function") return (name: string) => (headers as Headers).get(name) ?? undefined;
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(",") : v]));
  return (name: string) => lower.get(name) ?? undefined;
}

const bytesOf = (body: string | Uint8Array | ArrayBuffer): Bytes =>
  typeof body === "string" ? utf8(body) : new Uint8Array(body);

function concat(prefix: string, body: Bytes): Bytes {
  const head = utf8(prefix);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

function fromHex(hex: string): Bytes | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function fromBase64(text: string): Bytes | null {
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const hmacKey = (raw: Bytes) => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);

/** True when any signature is the HMAC of `message` under any key; each comparison is constant-time. */
async function anyMatches(keys: Bytes[], signatures: Bytes[], message: Bytes) {
  for (const raw of keys) {
    const key = await hmacKey(raw);
    for (const signature of signatures) if (await crypto.subtle.verify("HMAC", key, signature, message)) return true;
  }
  return false;
}

interface SchemeResult {
  matched: boolean;
  timestamp: number;
}

/** Headers present but not in the scheme's form: nothing can match. */
const MALFORMED: SchemeResult = { matched: false, timestamp: Number.NaN };

async function stripeStyle(header: string, secrets: string[], body: Bytes): Promise<SchemeResult> {
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = parts.find(([k]) => k === "t")?.[1];
  const signatures = parts.filter(([k]) => k === "v1").map(([, v]) => fromHex(v ?? "")).filter((s): s is Bytes => s !== null);
  if (!t || !/^\d+$/.test(t) || signatures.length === 0) return MALFORMED;
  const matched = await anyMatches(secrets.map(utf8), signatures, concat(`${t}.`, body));
  return { matched, timestamp: Number(t) };
}

async function standardWebhooks(id: string, timestamp: string, header: string, secrets: string[], body: Bytes): Promise<SchemeResult> {
  const signatures = header
    .split(" ")
    .map((p) => p.trim())
    .filter((p) => p.startsWith("v1,"))
    .map((p) => fromBase64(p.slice(3)))
    .filter((s): s is Bytes => s !== null);
  if (!/^\d+$/.test(timestamp) || signatures.length === 0) return MALFORMED;
  const keys = secrets.map((s) => fromBase64(s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : s)).filter((k): k is Bytes => k !== null);
  const matched = await anyMatches(keys, signatures, concat(`${id}.${timestamp}.`, body));
  return { matched, timestamp: Number(timestamp) };
}

/**
 * Verifies `body` against `headers` with the endpoint's secret (or several, e.g.
 * the old and the new one while you roll a rotation out) and returns the parsed event.
 * Throws `WebhookVerificationError` otherwise.
 */
export async function verifyWebhook(
  body: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const header = headerReader(headers);
  const secrets = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0 || secrets.some((s) => !s)) throw new TypeError("verifyWebhook needs the endpoint's secret (whsec_…)");
  const bytes = bytesOf(body);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = (options.now ?? Date.now)() / 1000;

  const results: SchemeResult[] = [];
  const serviceHeader = header("x-service-signature-256");
  if (serviceHeader) results.push(await stripeStyle(serviceHeader, secrets, bytes));
  const [id, timestamp, signature] = [header("webhook-id"), header("webhook-timestamp"), header("webhook-signature")];
  if (id && timestamp && signature) results.push(await standardWebhooks(id, timestamp, signature, secrets, bytes));
  if (results.length === 0) {
    throw new WebhookVerificationError("missing_signature", "No X-Service-Signature-256 or webhook-id/webhook-timestamp/webhook-signature headers to verify.");
  }
  const matched = results.filter((r) => r.matched);
  if (matched.length === 0) throw new WebhookVerificationError("invalid_signature", "No signature matches the secret: wrong secret, or the body or headers were altered.");
  if (!matched.some((r) => Math.abs(now - r.timestamp) <= tolerance)) {
    throw new WebhookVerificationError("timestamp_outside_tolerance", `The signed timestamp is more than ${tolerance} seconds from now.`);
  }

  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new WebhookVerificationError("invalid_body", "The body is not JSON.");
  }
  if (event === null || typeof event !== "object" || typeof (event as { event?: unknown }).event !== "string") {
    throw new WebhookVerificationError("invalid_body", "The body is not a webhook event.");
  }
  return event as WebhookEvent;
}
