import { Hono } from "hono";
import { ADMIN_BASE, createAdminApi } from "./api/admin";
import { createDocsPage } from "./api/reference/page";
import { createFileRoutes } from "./web/files/routes";
import { createLenderApi, LENDER_BASE } from "./api/lender";
import type { AppEnv } from "./app-env";
import { onError, problemResponse } from "./api/problem";
import { Refusal } from "./lib/refusal";
import { createHubRoutes } from "./web/hub/routes";
import { FILE_ROUTE, HUB_ROUTE } from "./lib/signed-links";
import { provideDatabase } from "./middleware/database";
import { mountHealth } from "./api/health/route";
import { requireConfiguration } from "./middleware/configuration";
import { requestId } from "./middleware/request-id";
import { requestLog } from "./middleware/request-log";
import { limitRequestBody } from "./middleware/body-limit";
import { sandboxHost } from "./middleware/sandbox-host";
import { serverTiming } from "./middleware/server-timing";
import { traceContext } from "./middleware/trace-context";
import { createPartnerApi, PARTNER_BASE } from "./api/partner";
import { PORTAL_ROUTE } from "./web/portal/context";
import { createPortalRoutes } from "./web/portal/routes";
import { createEmbedRoutes, EMBED_ROUTE } from "./web/embed/routes";

/** Turns Hono route paths into matchers so a known path with the wrong method is a 405, not a 404. */
function methodsByPath(routes: { method: string; path: string }[]) {
  const table = routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({
      method: r.method,
      pattern: new RegExp(`^${r.path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "[^/]+").replace(/\/\*$/, "(/.*)?")}/?$`),
    }));
  return (path: string) => [...new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method))];
}

export function createApp() {
  const app = new Hono<AppEnv>();
  // The request log wraps everything, so its line sees the final status of every answer.
  app.use("*", requestLog, traceContext, serverTiming, requestId, provideDatabase, sandboxHost, async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    // No answer lets the browser send its URL on: hub and invitation links carry credentials (docs/operations.md "Security").
    c.res.headers.set("Referrer-Policy", "no-referrer");
  });
  // One body limit for every route, sized per route, before any door reads a body (docs/operations.md "Security").
  app.use("*", limitRequestBody);
  // Before the configuration check and every storage-touching middleware: a probe answers whatever else is wrong.
  mountHealth(app);
  // The widget is static code: a partner's page loads it even while a deployment lacks a secret.
  app.route(EMBED_ROUTE, createEmbedRoutes());
  app.use("*", requireConfiguration);

  const partnerApi = createPartnerApi();
  const lenderApi = createLenderApi();
  app.route(PARTNER_BASE, partnerApi);
  app.route(LENDER_BASE, lenderApi);
  app.route(ADMIN_BASE, createAdminApi());
  app.route(FILE_ROUTE, createFileRoutes());
  app.route(HUB_ROUTE, createHubRoutes());
  app.route(PORTAL_ROUTE, createPortalRoutes());
  app.route("/docs", createDocsPage([
    { title: "Partner API", slug: "partner", url: `${PARTNER_BASE}/openapi.json` },
    { title: "Lender API", slug: "lender", url: `${LENDER_BASE}/openapi.json` },
    { title: "Operator API", slug: "operator", url: `${ADMIN_BASE}/openapi.json` },
  ]));
  app.get("/", (c) => c.redirect("/docs"));

  const allowedMethods = methodsByPath(app.routes);
  app.notFound((c) => {
    const methods = allowedMethods(c.req.path);
    if (methods.length > 0 && !methods.includes(c.req.method)) {
      const refusal = new Refusal("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; allowed: ${methods.join(", ")}.`);
      return problemResponse(c, refusal, { Allow: methods.join(", ") });
    }
    return problemResponse(c, new Refusal("not_found", `No route for ${c.req.method} ${c.req.path}.`));
  });
  app.onError(onError);
  return app;
}
