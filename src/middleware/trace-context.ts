import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { continueTrace, formatTraceparent } from "../lib/trace-context";

/**
 * Joins the caller's W3C trace when it sends a valid `traceparent` (a fresh
 * trace otherwise) and answers with `traceparent` naming the same trace and
 * this request's own span, errors included. The trace id is on the request's
 * log line (middleware/request-log.ts).
 */
export const traceContext = createMiddleware<AppEnv>(async (c, next) => {
  const trace = continueTrace(c.req.header("traceparent"));
  c.set("trace", trace);
  await next();
  c.res.headers.set("traceparent", formatTraceparent(trace));
});
