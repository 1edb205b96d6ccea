import { Hono, type Context } from "hono";
import type { AppEnv } from "./app-env";
import { onError, problemResponse } from "./api/problem";
import { Refusal } from "./lib/refusal";
import { APPLICATION_ROUTE, FILE_ROUTE, HUB_ROUTE } from "./lib/signed-links";
import { EMBED_ROUTE } from "./lib/embed-route";
import { provideDatabase } from "./middleware/database";
import { mountHealth } from "./api/health/probe";
import { requireConfiguration } from "./middleware/configuration";
import { requestId } from "./middleware/request-id";
import { requestLog } from "./middleware/request-log";
import { limitRequestBody, type TooLargePage } from "./middleware/body-limit";
import { sandboxHost } from "./middleware/sandbox-host";
import { serverTiming } from "./middleware/server-timing";
import { traceContext } from "./middleware/trace-context";
import { PORTAL_ROUTE } from "./web/portal/context";
import { noStoreApiAnswers, strictTransport } from "./middleware/security-headers";

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

/**
 * A door of the service: the paths under `prefix` and the module that mounts their routes. A door's
 * module (its routes, their zod schemas, its OpenAPI document) is imported on the first request under
 * its prefix, not when the isolate starts (docs/capacity.md, "Cold start"): a cold isolate
 * evaluates only the shell below, and a partner's first request builds the partner API alone.
 * `aheadOfConfiguration`: mounted before the configuration check (the widget is static code).
 * The prefixes are the doors' own constants (PARTNER_BASE…); test/app-doors.test.ts holds them equal.
 */
interface Door {
  prefix: string;
  aheadOfConfiguration?: boolean;
  /** Mounts the door's routes; a door of pages answers with its page for a body over its route's limit. */
  mount: (app: Hono<AppEnv>) => Promise<void | { tooLargePage: TooLargePage }>;
}

export const DOORS: readonly Door[] = [
  { prefix: "/partner/v1", mount: async (app) => { const m = await import("./api/partner"); app.route(m.PARTNER_BASE, m.createPartnerApi()); } },
  { prefix: "/v1", mount: async (app) => { const m = await import("./api/lender"); app.route(m.LENDER_BASE, m.createLenderApi()); } },
  { prefix: "/admin/v1", mount: async (app) => { const m = await import("./api/admin"); app.route(m.ADMIN_BASE, m.createAdminApi()); } },
  { prefix: FILE_ROUTE, mount: async (app) => { app.route(FILE_ROUTE, (await import("./web/files/routes")).createFileRoutes()); } },
  {
    prefix: HUB_ROUTE,
    mount: async (app) => {
      const m = await import("./web/hub/routes");
      app.route(HUB_ROUTE, m.createHubRoutes());
      return { tooLargePage: m.hubTooLargePage };
    },
  },
  {
    prefix: APPLICATION_ROUTE,
    mount: async (app) => {
      const m = await import("./web/apply/routes");
      app.route(APPLICATION_ROUTE, m.createApplyRoutes());
      return { tooLargePage: m.applyTooLargePage };
    },
  },
  {
    prefix: PORTAL_ROUTE,
    mount: async (app) => {
      const m = await import("./web/portal/mount/routes");
      app.route(PORTAL_ROUTE, m.createPortalRoutes());
      return { tooLargePage: m.portalTooLargePage };
    },
  },
  {
    prefix: "/docs",
    mount: async (app) => {
      const { createDocsPage } = await import("./api/reference/page");
      app.route("/docs", createDocsPage([
        { title: "Partner API", slug: "partner", url: "/partner/v1/openapi.json" },
        { title: "Lender API", slug: "lender", url: "/v1/openapi.json" },
        { title: "Operator API", slug: "operator", url: "/admin/v1/openapi.json" },
      ]));
    },
  },
  { prefix: EMBED_ROUTE, aheadOfConfiguration: true, mount: async (app) => { app.route(EMBED_ROUTE, (await import("./web/embed/routes")).createEmbedRoutes()); } },
];

/** The door whose prefix the path is under, if any: the prefix itself or anything below it, never a suffix. */
export const doorOf = (path: string) => DOORS.find((d) => path === d.prefix || path.startsWith(`${d.prefix}/`));

/**
 * One door's whole app: every request's middleware (the request log wraps everything, so its line sees
 * the final status of every answer), /health, the configuration check, the door's routes, and the
 * 404/405 answer from that app's own routes. A path under no door gets the shell alone (`door` absent).
 */
async function shell(door?: Door) {
  const app = new Hono<AppEnv>();
  // The request log wraps everything, so its line sees the final status of every answer.
  app.use("*", requestLog, traceContext, serverTiming, requestId, provideDatabase, sandboxHost, strictTransport, async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    // No answer lets the browser send its URL on: hub and invitation links carry credentials (docs/operations.md "Security").
    c.res.headers.set("Referrer-Policy", "no-referrer");
  });
  // One body limit for every route, sized per route from this app's own route table (a route that takes
  // files says so), before any door reads a body (docs/operations.md "Security").
  let tooLargePage: TooLargePage | undefined;
  app.use("*", limitRequestBody({ routes: () => app.routes, page: () => tooLargePage }));
  const mount = async (d: Door) => {
    tooLargePage = (await d.mount(app))?.tooLargePage;
  };
  // Before the configuration check and every storage-touching middleware: a probe answers whatever else is wrong.
  mountHealth(app);
  if (door?.aheadOfConfiguration) await mount(door);
  app.use("*", requireConfiguration);
  // API answers carry personal data or secrets: no-store unless a route says otherwise (docs/operations.md "Security").
  for (const base of ["/partner/v1", "/v1", "/admin/v1"]) app.use(`${base}/*`, noStoreApiAnswers);
  if (door && !door.aheadOfConfiguration) await mount(door);
  app.get("/", (c) => c.redirect("/docs"));

  // Built on the first 404, not at startup: a compiled pattern per route is work a cold isolate need not do.
  let allowedMethods: ((path: string) => string[]) | undefined;
  app.notFound((c) => {
    allowedMethods ??= methodsByPath(app.routes);
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

/**
 * The service: each request goes, untouched, to the app of the door its path is under, built on that
 * door's first request and kept for the isolate's life (a failed build is retried by the next request).
 */
export function createApp() {
  const built = new Map<Door | undefined, Promise<Hono<AppEnv>>>();
  const appOf = (door: Door | undefined) => {
    let app = built.get(door);
    if (!app) {
      app = shell(door);
      built.set(door, app);
      app.catch(() => built.delete(door));
    }
    return app;
  };
  const service = new Hono<AppEnv>();
  service.all("*", async (c) => {
    const app = await appOf(doorOf(c.req.path));
    return app.fetch(c.req.raw, c.env, executionContextOf(c));
  });
  service.onError(onError);
  return service;
}

/** The request's execution context, when it has one (a test's `app.request()` may not). */
function executionContextOf(c: Context<AppEnv>): Context<AppEnv>["executionCtx"] | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
