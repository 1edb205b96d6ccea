import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { LimitPolicy, RateLimitVerdict } from "../durable-objects/key-authority";
import { addressShareOf } from "../domain/identity/key-state";
import { clientAddress } from "../lib/client-address";
import { Refusal } from "../lib/refusal";
import type { AppEnv } from "../app-env";
import { logError } from "../lib/logger";

const WINDOW_SECONDS = 60;
/** How long a caller is asked to wait when the limiter cannot be reached: a short outage, not a window. */
export const LIMITER_UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The spec's `"default"` policy first, always; a publishable key's answer adds its per-address share
 * as a second item (`"address"`), in the same window, so a client reads both what the key and what
 * its own address have left.
 */
function setHeaders(c: Context<AppEnv>, verdict: RateLimitVerdict) {
  const share = verdict.share;
  c.header("RateLimit-Policy", `"default";q=${verdict.limit};w=${WINDOW_SECONDS}${share ? `, "address";q=${share.limit};w=${WINDOW_SECONDS}` : ""}`);
  c.header("RateLimit", `"default";r=${verdict.remaining};t=${verdict.resetSeconds}${share ? `, "address";r=${share.remaining};t=${verdict.resetSeconds}` : ""}`);
}

export function limitPolicy(c: Context<AppEnv>): LimitPolicy {
  const limit = Number(c.env.RATE_LIMIT_PER_MINUTE) || 120;
  return { limit, windowSeconds: WINDOW_SECONDS, addressShare: addressShareOf(c.env.PUBLISHABLE_SHARE_PER_ADDRESS, limit) };
}

/**
 * An unreachable limiter fails closed: 503 with Retry-After, never a 500 and
 * never an uncounted request. The bucket names a key's client id or an
 * address: neither is logged.
 */
export function limiterUnavailable(c: Context<AppEnv>, error: unknown): Refusal {
  logError("rate_limiter_unavailable", error, { request_id: c.get("requestId") });
  return new Refusal("service_unavailable", `The request could not be counted against its rate limit just now; retry after ${LIMITER_UNAVAILABLE_RETRY_SECONDS} seconds.`, {
    retryAfterSeconds: LIMITER_UNAVAILABLE_RETRY_SECONDS,
  });
}

/** Answers with the verdict's headers; throws 429 `rate_limited` once the window, or the address's share of it, is spent. */
export function applyVerdict(c: Context<AppEnv>, verdict: RateLimitVerdict) {
  setHeaders(c, verdict);
  if (verdict.allowed) return;
  const byShare = verdict.share !== undefined && verdict.share.remaining === 0 && verdict.remaining > 0;
  const detail = byShare
    ? `This client address has made its ${verdict.share!.limit} of this publishable key's ${verdict.limit} requests in the current one-minute window (each address gets a share, so other visitors keep theirs); retry after ${verdict.resetSeconds} seconds.`
    : `More than ${verdict.limit} requests in the current one-minute window; retry after ${verdict.resetSeconds} seconds.`;
  throw new Refusal("rate_limited", detail, { retryAfterSeconds: verdict.resetSeconds });
}

/**
 * Counts one failed authentication (a wrong key or bearer token, a wrong client secret, a wrong operator
 * token) against the sender's address, in the bucket they all share: 429 `rate_limited` once it is spent.
 */
export async function countFailedAttempt(c: Context<AppEnv>) {
  const bucket = `ip:${clientAddress(c.req.raw)}`;
  const { limit, windowSeconds } = limitPolicy(c);
  let verdict: RateLimitVerdict;
  try {
    verdict = await c.env.KEY_AUTHORITY.get(c.env.KEY_AUTHORITY.idFromName(bucket)).hit(limit, windowSeconds);
  } catch (error) {
    throw limiterUnavailable(c, error);
  }
  applyVerdict(c, verdict);
}

/**
 * Per-key limit. The key's Durable Object counted the request while it
 * authenticated it (one call, see middleware/auth.ts); this applies the
 * verdict once the host, key-type and origin rules have passed. An uncounted
 * request (a refused origin) must have been refused by `enforceOrigin` before this.
 */
export const rateLimitPerKey = createMiddleware<AppEnv>(async (c, next) => {
  const verdict = c.get("rateLimit");
  if (!verdict) throw new Error("rateLimitPerKey: the request was not counted; enforceOrigin must run before it.");
  applyVerdict(c, verdict);
  await next();
});
