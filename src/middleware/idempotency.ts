import { createMiddleware } from "hono/factory";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { claimIdempotencyKey, completeIdempotencyRecord, findIdempotencyRecord, IN_FLIGHT, releaseIdempotencyKey } from "../db/identity/idempotency";
import { sha256Hex, toHex } from "../lib/crypto";
import type { AppEnv } from "../app-env";
import { Refusal } from "../lib/refusal";

const HEADER = "Idempotency-Key";
const RETENTION_SECONDS = 24 * 60 * 60;
/** How long an unfinished first request holds its key; a crashed one frees it after this. */
const LEASE_SECONDS = 60;
/** Response headers worth replaying; request ids and rate-limit headers belong to the replay itself. */
const REPLAYED_HEADERS = ["content-type", "location"];
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Sorted keys, so the same JSON written with other spacing or key order is the same body. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Read as bytes, not text: the body is cached for the route, and a cached
 * text would hand a multipart upload's binary file on re-encoded as UTF-8.
 */
async function bodyHash(raw: ArrayBuffer) {
  try {
    return await sha256Hex(canonical(JSON.parse(new TextDecoder().decode(raw))));
  } catch {
    return toHex(await crypto.subtle.digest("SHA-256", raw));
  }
}

/**
 * `Idempotency-Key` on POST: the same key with the same body within 24 hours
 * answers the first response again (`Idempotent-Replayed: true`); the same key
 * with another body is 422 `idempotency_key_reused`; a retry while the first
 * request is still running is 409 `idempotency_key_in_use`. Only successful
 * responses are kept: a failed request frees its key. Keys are scoped to the
 * caller's organisation, environment, method and path. Mounted once per API,
 * after auth, so every POST of both APIs honours it.
 */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header(HEADER);
  if (key === undefined || c.req.method !== "POST") return next();
  if (!KEY_PATTERN.test(key)) {
    throw new Refusal("invalid_request", `${HEADER} must be 1 to 255 printable ASCII characters.`, { field: `header.${HEADER}` });
  }
  const caller = c.get("caller");
  const scopeKey = `${caller.organisationId}:${caller.environment}:${c.req.method} ${c.req.path}:${key}`;
  const requestHash = await bodyHash(await c.req.arrayBuffer());
  const db = c.get("db");
  const now = Math.floor(Date.now() / 1000);

  if (!(await claimIdempotencyKey(db, scopeKey, requestHash, now, LEASE_SECONDS))) {
    const record = await findIdempotencyRecord(db, scopeKey);
    if (record && record.requestHash !== requestHash) {
      throw new Refusal("idempotency_key_reused", `This ${HEADER} was used with a different request body; use a new key for a new request.`, {
        field: `header.${HEADER}`,
      });
    }
    if (!record || record.status === IN_FLIGHT) {
      throw new Refusal("idempotency_key_in_use", `A request with this ${HEADER} is still being processed; retry shortly.`, {
        field: `header.${HEADER}`,
        retryAfterSeconds: 1,
      });
    }
    for (const [name, value] of Object.entries(record.responseHeaders)) c.header(name, value);
    c.header("Idempotent-Replayed", "true");
    return c.body(record.responseBody, record.status as ContentfulStatusCode);
  }

  try {
    await next();
  } catch (error) {
    await releaseIdempotencyKey(db, scopeKey);
    throw error;
  }
  const res = c.res;
  if (c.error || res.status < 200 || res.status >= 300) {
    await releaseIdempotencyKey(db, scopeKey);
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = await res.clone().text();
  await completeIdempotencyRecord(db, scopeKey, { status: res.status, body, headers }, now + RETENTION_SECONDS);
});
