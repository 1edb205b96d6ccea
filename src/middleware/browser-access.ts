import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { Refusal } from "../lib/refusal";

const ALLOWED_HEADERS = "Content-Type, X-API-Key, Authorization, Idempotency-Key, traceparent";
const EXPOSED_HEADERS = "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, traceparent";

/**
 * CORS for the browser-safe routes. A preflight carries no credentials, so it
 * is answered for any origin; the real request is then held to the key's
 * allowed origins; a refused origin reads only the refusal (see below), never an answer.
 */
export const browserAccess = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("Origin");
  if (c.req.method === "OPTIONS") {
    return c.body(null, 204, {
      "Access-Control-Allow-Origin": origin ?? "*",
      "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
      "Access-Control-Allow-Headers": ALLOWED_HEADERS,
      "Access-Control-Max-Age": "600",
      Vary: "Origin",
    });
  }
  await next();
  // A refusal (bad input, an unknown key, the rate limit) says nothing a page may not know, and a
  // page that cannot read it can only guess "network error"; an answer stays for allowed origins.
  if (origin && c.res.status >= 400 && !c.res.headers.has("Access-Control-Allow-Origin")) {
    c.res.headers.set("Access-Control-Allow-Origin", origin);
    c.res.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    c.res.headers.append("Vary", "Origin");
  }
});

/**
 * Runs after authentication: a publishable key used from a page not on its list is refused. The
 * refusal itself is readable by that page (it carries CORS headers and says only that the origin is
 * not allowed), so an embedded form can tell its visitor why instead of failing like a network error;
 * the answer a key would have given never is.
 */
export const enforceOrigin = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("Origin");
  const caller = c.get("caller");
  if (origin && caller.keyKind === "publishable" && !caller.allowedOrigins.includes(origin)) {
    throw new Refusal("origin_not_allowed", `The origin ${origin} is not in this publishable key's allowed origins.`);
  }
  // Secret keys never get CORS headers: they must not live in a web page.
  if (origin && caller.keyKind === "publishable") {
    c.header("Access-Control-Allow-Origin", origin);
    c.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    c.header("Vary", "Origin");
  }
  await next();
});
