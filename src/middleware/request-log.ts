import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../app-env";
import type { PortalViewer } from "../domain/portal/viewer";
import { log, roundMs, type LogFields } from "../lib/logger";

/**
 * The pattern of the route that answered (`/partner/v1/leads/:id`), never the
 * raw path: paths carry ids and, for signed file and hub links, tokens. A
 * guard that refused the request (401, 429…) stopped ahead of its handler, so
 * the route is the first handler matched after the last step that ran. A
 * request no route matches (404, 405) has `route: null`: its path may be
 * anything a caller typed.
 */
function routePattern(c: Context<AppEnv>): string | null {
  const routes = matchedRoutes(c);
  // Middleware is registered for every method ("ALL"); so is the hub's own catch-all 404.
  const handler = routes.slice(Math.max(c.req.routeIndex, 0)).find((route) => route.method !== "ALL");
  return handler?.path ?? null;
}

/** Who called, by ids: an API key or token's organisation, or a portal member's (never the member's e-mail or session). */
function callerFields(c: Context<AppEnv>): LogFields {
  const caller = c.get("caller");
  if (caller) return { organisation_id: caller.organisationId, environment: caller.environment, key_kind: caller.keyKind, auth: caller.via };
  // The portal's pages put their signed-in member on the context under their own env type (web/portal/context.ts).
  const viewer = (c.var as { viewer?: PortalViewer }).viewer;
  if (viewer) return { organisation_id: viewer.organisationId, environment: viewer.environment, auth: "portal_session" };
  return {};
}

/**
 * One JSON line per request, written once the answer (errors included) is
 * ready: ids, route pattern, method, status, duration, who called (ids only)
 * and the D1 and Durable Object round trips the Server-Timing header counted
 * (the same counter, middleware/server-timing.ts). Never a header, a query
 * string, a body or a credential.
 */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  try {
    await next();
  } finally {
    const status = c.res.status;
    const trace = c.get("trace");
    const roundTrips = c.get("roundTrips");
    log(status >= 500 ? "error" : "info", "request", {
      request_id: c.get("requestId"),
      trace_id: trace?.traceId,
      span_id: trace?.spanId,
      parent_id: trace?.parentId,
      trace_origin: trace?.origin,
      method: c.req.method,
      route: routePattern(c),
      status,
      duration_ms: roundMs(performance.now() - started),
      ...callerFields(c),
      sandbox_host: c.get("sandboxHost"),
      d1_round_trips: roundTrips?.d1.count,
      d1_ms: roundTrips && roundMs(roundTrips.d1.ms),
      do_calls: roundTrips?.durableObjects.count,
      do_ms: roundTrips && roundMs(roundTrips.durableObjects.ms),
    });
  }
});
