/**
 * The JSON doors' answer to a refusal: problem+json (RFC 9457) with the code's
 * status and title from the one table, `error.code` for branching, the field at
 * fault, and `Retry-After` when the refusal says when to try again. `onError`
 * is every door's last word: a `Refusal` is answered as such, Hono's own
 * exceptions are mapped onto the catalogue, and anything else is a 500 that is
 * logged with the request id and never echoed.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { logError } from "../lib/logger";
import { isOverload, OVERLOAD_RETRY_SECONDS } from "../lib/overload";
import { Refusal } from "../lib/refusal";
import { REFUSAL_STATUS } from "../lib/refusal-status";

/** The problem body needs only the request id from the context. */
type RequestEnv = { Variables: { requestId: string } };

export function problemBody<E extends RequestEnv>(c: Context<E>, refusal: Refusal) {
  const { code, detail } = refusal;
  const { status, title } = REFUSAL_STATUS[code];
  const error: Record<string, unknown> = { code, message: detail };
  if (refusal.field) error.field = refusal.field;
  return {
    type: new URL(`/docs#error-${code}`, c.req.url).toString(),
    title,
    status,
    detail,
    message: detail,
    error,
    ...refusal.extra,
    request_id: c.get("requestId"),
  };
}

/** A refusal as problem+json; `headers` are a door's own (`Allow` on a 405). */
export function problemResponse<E extends RequestEnv>(c: Context<E>, refusal: Refusal, headers: Record<string, string> = {}) {
  const body = problemBody(c, refusal);
  if (refusal.retryAfterSeconds !== undefined) c.header("Retry-After", String(refusal.retryAfterSeconds));
  // Every 503 says when to come back, whichever refusal it is (misconfiguration, an unreachable resolver).
  else if (body.status === 503) c.header("Retry-After", String(OVERLOAD_RETRY_SECONDS));
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  c.header("Content-Type", "application/problem+json");
  c.header("Cache-Control", "no-store");
  return c.body(JSON.stringify(body), body.status as ContentfulStatusCode);
}

/**
 * The 500's words promise a safe retry only where one is: a read, or a keyed write that failed before
 * any of it was saved (its Idempotency-Key freed, `nothingSaved`). A write without a key may have been
 * saved before the failure, so its caller is told to look before repeating it.
 */
const INTERNAL = "Something went wrong on our side; it is safe to retry with backoff.";
const INTERNAL_NOTHING_SAVED = "Something went wrong on our side before anything was saved; it is safe to retry with backoff, with the same Idempotency-Key.";
const INTERNAL_MAYBE_SAVED =
  "Something went wrong on our side, and the change may have been saved. Read the resource before you repeat it; a write sent with an Idempotency-Key is never repeated by its retry.";
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A context variable by name, whichever door's context it is (every door's app-env sets `requestId`). */
const variableOf = (c: Context, key: string) => (c.get as (key: string) => unknown)(key);

function internalError(c: Context) {
  if (READS.has(c.req.method)) return new Refusal("internal_error", INTERNAL);
  const nothingSaved = variableOf(c, "nothingSaved") === true;
  return new Refusal("internal_error", nothingSaved ? INTERNAL_NOTHING_SAVED : INTERNAL_MAYBE_SAVED);
}

/** Hono's own exceptions (unreadable JSON, a body over the limit), mapped onto the catalogue. */
function fromHttpException(err: HTTPException): Refusal {
  switch (err.status) {
    case 400:
      return new Refusal("invalid_request", /json/i.test(err.message) ? "The request body is not valid JSON." : err.message || "The request could not be read.");
    case 401:
      return new Refusal("unauthorized", "Authentication required.");
    case 404:
      return new Refusal("not_found", "Not found.");
    case 413:
      return new Refusal("payload_too_large", "The request body is too large.");
    case 415:
      return new Refusal("unsupported_media_type", "Send the body as application/json.");
    default:
      return new Refusal("internal_error", INTERNAL);
  }
}

/**
 * Any error as the refusal a door answers with: a `Refusal` as it is, Hono's exceptions mapped onto
 * the catalogue, an overload as a 503 to retry, anything else logged with the request id (never
 * echoed) as a 500. The JSON doors answer it as problem+json (`onError`), the HTML wing as a page
 * (web/kit/page-errors.ts), so both log alike.
 */
export function refusalOfError(err: unknown, c: Context): Refusal {
  if (err instanceof Refusal) return err;
  if (err instanceof HTTPException) return fromHttpException(err);
  if (isOverload(err)) {
    // The platform is too busy (an overloaded Durable Object or D1): a 503 to retry, not a 500.
    logError("overloaded", err, { request_id: variableOf(c, "requestId") as string });
    return new Refusal("service_unavailable", `The service is too busy just now; retry after ${OVERLOAD_RETRY_SECONDS} seconds.`, { retryAfterSeconds: OVERLOAD_RETRY_SECONDS });
  }
  // Unknown failures are logged with the request id and never echoed: no stack, no message.
  logError("unhandled_error", err, { request_id: variableOf(c, "requestId") as string });
  return internalError(c);
}

export function onError<E extends RequestEnv>(err: Error, c: Context<E>) {
  return problemResponse(c, refusalOfError(err, c as Context));
}
