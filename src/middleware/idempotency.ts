import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  claimIdempotencyKey,
  COMMITTED,
  committingDatabase,
  completeIdempotencyRecord,
  findIdempotencyRecord,
  IN_FLIGHT,
  releaseIdempotencyKey,
  type Lease,
} from "../db/identity/idempotency";
import { randomToken, sha256Hex, toHex } from "../lib/crypto";
import { logError } from "../lib/logger";
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

/** The answer once a keyed write committed and its own answer was lost: never "safe to retry" with a new key. */
const committedWithoutAnswer = () =>
  new Refusal(
    "internal_error",
    `The change was saved, but its answer was lost on our side. Do not repeat it with a new ${HEADER}: read the resource to see it; a retry with this key answers this again.`,
  );

/**
 * `Idempotency-Key` on POST: the same key with the same body within 24 hours
 * answers the first response again (`Idempotent-Replayed: true`); the same key
 * with another body is 422 `idempotency_key_reused`; a retry while the first
 * request is still running is 409 `idempotency_key_in_use`. Keys are scoped to the
 * caller's organisation, environment, method and path (the operator API's keys
 * have their own scope). Mounted once per API, after auth, so every POST of the
 * three APIs honours it.
 *
 * The key is spent in the same D1 batch as the write it protects: the request's
 * database (`c.get("db")`) appends the key's commit to every batch it runs
 * (`committingDatabase`), so a failure after the write cannot free the key, and a
 * lease taken over after expiry aborts the old holder's batch. A refusal (4xx) or a
 * failure before any write frees the key; a 2xx answer is stored and replayed; a 5xx
 * after the write committed keeps the key spent and is answered, then and on every
 * retry, with `committedWithoutAnswer`.
 */
const keyedBy = (scopeOf: (c: Context<AppEnv>) => string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header(HEADER);
    if (key === undefined || c.req.method !== "POST") return next();
    if (!KEY_PATTERN.test(key)) {
      throw new Refusal("invalid_request", `${HEADER} must be 1 to 255 printable ASCII characters.`, { field: `header.${HEADER}` });
    }
    const scopeKey = `${scopeOf(c)}:${c.req.method} ${c.req.path}:${key}`;
    const requestHash = await bodyHash(await c.req.arrayBuffer());
    const db = c.get("db");
    const now = Math.floor(Date.now() / 1000);
    const lease: Lease = { scopeKey, token: `lease_${randomToken(24)}`, committedUntil: now + RETENTION_SECONDS };

    if (!(await claimIdempotencyKey(db, lease, requestHash, now, LEASE_SECONDS))) {
      const record = await findIdempotencyRecord(db, scopeKey);
      if (record && record.requestHash !== requestHash) {
        throw new Refusal("idempotency_key_reused", `This ${HEADER} was used with a different request body; use a new key for a new request.`, {
          field: `header.${HEADER}`,
        });
      }
      if (record?.status === COMMITTED) throw committedWithoutAnswer();
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

    let committed = false;
    // Read by the 500's words (api/problem.ts), whichever level of the app answers the failure.
    c.set("nothingSaved", true);
    const committing = committingDatabase(db, lease, () => {
      committed = true;
      c.set("nothingSaved", false);
    });
    // Services read the database from Deps: they get the committing one too, or their batches would not spend the key.
    const deps = c.get("deps");
    c.set("db", committing);
    c.set("deps", { ...deps, db: committing });
    try {
      await next();
    } catch (error) {
      if (!committed) {
        await releaseIdempotencyKey(db, lease);
        throw error;
      }
      // The write is in; only its answer failed. The key stays spent.
      logError("idempotent_write_answer_lost", error, { request_id: c.get("requestId") });
      throw committedWithoutAnswer();
    } finally {
      c.set("db", db);
      c.set("deps", deps);
    }
    const res = c.res;
    if (c.error || res.status < 200 || res.status >= 300) {
      // A refusal changed nothing (a batch whose guard lost wrote nothing either): free the key.
      if (res.status < 500 || !committed) await releaseIdempotencyKey(db, lease, true);
      else if (c.error) {
        logError("idempotent_write_answer_lost", c.error, { request_id: c.get("requestId") });
        throw committedWithoutAnswer();
      }
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const body = await res.clone().text();
    try {
      await completeIdempotencyRecord(db, lease, { status: res.status, body, headers }, now + RETENTION_SECONDS);
    } catch (error) {
      // The answer stands; the key stays spent (a retry is told the change was saved).
      logError("idempotency_answer_not_stored", error, { request_id: c.get("requestId") });
    }
  });

/** The partner and lender APIs: keys are scoped to the calling organisation and environment. */
export const idempotency = keyedBy((c) => {
  const caller = c.get("caller");
  return `${caller.organisationId}:${caller.environment}`;
});

/** The operator API: one operator, one scope, apart from every organisation's keys. */
export const operatorIdempotency = keyedBy(() => "operator");
