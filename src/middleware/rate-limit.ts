import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { RateLimitVerdict } from "../durable-objects/rate-limiter";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../app-env";
import { loggableError } from "../lib/loggable-error";

const WINDOW_SECONDS = 60;
/** How long a caller is asked to wait when the limiter cannot be reached: a short outage, not a window. */
export const LIMITER_UNAVAILABLE_RETRY_SECONDS = 5;

function setHeaders(c: Context<AppEnv>, verdict: RateLimitVerdict) {
  c.header("RateLimit-Policy", `"default";q=${verdict.limit};w=${WINDOW_SECONDS}`);
  c.header("RateLimit", `"default";r=${verdict.remaining};t=${verdict.resetSeconds}`);
}

/**
 * Asks the bucket's Durable Object for a verdict. An unreachable limiter fails
 * closed: 503 with Retry-After, never a 500 and never an uncounted request.
 */
async function askLimiter(c: Context<AppEnv>, bucket: string, limit: number): Promise<RateLimitVerdict> {
  try {
    const stub = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(bucket));
    return await stub.hit(limit, WINDOW_SECONDS);
  } catch (error) {
    // The bucket names a key's client id or an address: neither is logged.
    console.error(JSON.stringify({ level: "error", at: "rate-limit", request_id: c.get("requestId"), ...loggableError(error) }));
    throw new ApiError("service_unavailable", `The request could not be counted against its rate limit just now; retry after ${LIMITER_UNAVAILABLE_RETRY_SECONDS} seconds.`, {
      headers: { "Retry-After": String(LIMITER_UNAVAILABLE_RETRY_SECONDS) },
    });
  }
}

/** Counts one request against `bucket`; throws 429 `rate_limited` once the window is spent. */
export async function consumeRateLimit(c: Context<AppEnv>, bucket: string) {
  const limit = Number(c.env.RATE_LIMIT_PER_MINUTE) || 120;
  const verdict = await askLimiter(c, bucket, limit);
  setHeaders(c, verdict);
  if (!verdict.allowed) {
    throw new ApiError("rate_limited", `More than ${limit} requests in the current one-minute window; retry after ${verdict.resetSeconds} seconds.`, {
      headers: { "Retry-After": String(verdict.resetSeconds) },
    });
  }
}

/** Per-key limit; runs after authentication so the bucket is the caller's key. */
export const rateLimitPerKey = createMiddleware<AppEnv>(async (c, next) => {
  await consumeRateLimit(c, `key:${c.get("caller").clientId}`);
  await next();
});
