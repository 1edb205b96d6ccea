import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { LimitPolicy, RateLimitVerdict } from "../durable-objects/rate-limiter";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../app-env";

const WINDOW_SECONDS = 60;

function setHeaders(c: Context<AppEnv>, verdict: RateLimitVerdict) {
  c.header("RateLimit-Policy", `"default";q=${verdict.limit};w=${WINDOW_SECONDS}`);
  c.header("RateLimit", `"default";r=${verdict.remaining};t=${verdict.resetSeconds}`);
}

export const limitPolicy = (c: Context<AppEnv>): LimitPolicy => ({ limit: Number(c.env.RATE_LIMIT_PER_MINUTE) || 120, windowSeconds: WINDOW_SECONDS });

/** Answers with the verdict's headers; throws 429 `rate_limited` once the window is spent. */
function applyVerdict(c: Context<AppEnv>, verdict: RateLimitVerdict) {
  setHeaders(c, verdict);
  if (!verdict.allowed) {
    throw new ApiError("rate_limited", `More than ${verdict.limit} requests in the current one-minute window; retry after ${verdict.resetSeconds} seconds.`, {
      headers: { "Retry-After": String(verdict.resetSeconds) },
    });
  }
}

/** Counts one request against `bucket` (a client address, the token endpoint's client id). */
export async function consumeRateLimit(c: Context<AppEnv>, bucket: string) {
  const { limit, windowSeconds } = limitPolicy(c);
  applyVerdict(c, await c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(bucket)).hit(limit, windowSeconds));
}

/**
 * Per-key limit. The key's Durable Object counted the request while it
 * authenticated it (one call, see middleware/auth.ts); this applies the
 * verdict once the host and key-type rules have passed.
 */
export const rateLimitPerKey = createMiddleware<AppEnv>(async (c, next) => {
  applyVerdict(c, c.get("rateLimit"));
  await next();
});
