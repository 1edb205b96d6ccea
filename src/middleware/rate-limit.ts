import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { RateLimitVerdict } from "../durable-objects/rate-limiter";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../app-env";

const WINDOW_SECONDS = 60;

function setHeaders(c: Context<AppEnv>, verdict: RateLimitVerdict) {
  c.header("RateLimit-Policy", `"default";q=${verdict.limit};w=${WINDOW_SECONDS}`);
  c.header("RateLimit", `"default";r=${verdict.remaining};t=${verdict.resetSeconds}`);
}

/** Counts one request against `bucket`; throws 429 `rate_limited` once the window is spent. */
export async function consumeRateLimit(c: Context<AppEnv>, bucket: string) {
  const limit = Number(c.env.RATE_LIMIT_PER_MINUTE) || 120;
  const stub = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(bucket));
  const verdict = await stub.hit(limit, WINDOW_SECONDS);
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
