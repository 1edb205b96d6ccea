import { authenticate } from "../../middleware/auth";
import { browserAccess, enforceOrigin } from "../../middleware/browser-access";
import { dispatchAfterWrite } from "../../middleware/dispatch-after-write";
import { idempotency } from "../../middleware/idempotency";
import { rateLimitPerKey } from "../../middleware/rate-limit";
import { unless } from "../../middleware/unless";
import { serveDocument } from "../reference/document";
import { createRouter } from "../router";
import { registerEnumRoutes } from "./enums/handlers";
import { registerLeadRoutes } from "./leads/handlers";
import { registerApplicationLinkRoutes } from "./application-link/handlers";
import { registerMeRoutes } from "../shared/me/handlers";
import { registerOfferRoutes } from "./offers/handlers";
import { registerCommissionRoutes } from "./commissions/handlers";
import { registerTokenRoutes } from "./oauth/handlers";
import { registerPrequalificationRoutes } from "./prequalification/handlers";
import { registerDocumentRoutes } from "./documents/handlers";
import { registerEventRoutes } from "../shared/events/handlers";
import { registerWebhookRoutes } from "../shared/webhooks/handlers";
import { describeHealth } from "../health/route";

export const PARTNER_BASE = "/partner/v1";

/** Paths a publishable (browser) key may call. */
const BROWSER_SAFE = /^\/partner\/v1\/(enums(\/[^/]+)?|prequalification)$/;

/** The only partner paths served without a credential; matched exactly, never by suffix. */
const PUBLIC_PATHS = [`${PARTNER_BASE}/oauth/token`, `${PARTNER_BASE}/openapi.json`];

export function createPartnerApi() {
  const api = createRouter();
  api.use("*", dispatchAfterWrite);
  registerTokenRoutes(api);

  api.use("/enums", browserAccess);
  api.use("/enums/*", browserAccess);
  api.use("/prequalification", browserAccess);
  api.use(
    "*",
    unless(
      PUBLIC_PATHS,
      authenticate({
        accept: ["partner", "publishable"],
        bearer: true,
        hint: "Send Authorization: Bearer <token> (from POST /partner/v1/oauth/token) or X-API-Key: <partner key>.",
        browserSafe: (path) => BROWSER_SAFE.test(path),
      }),
    ),
    // The origin rule before the quota: a page a publishable key does not allow is refused uncounted,
    // so a foreign page cannot lock the partner's own site out with 429 (the key's object skips the count).
    unless(PUBLIC_PATHS, enforceOrigin),
    unless(PUBLIC_PATHS, rateLimitPerKey),
    // Prequalification stores nothing, not even an idempotency record: it is safe to repeat as it is.
    unless([...PUBLIC_PATHS, `${PARTNER_BASE}/prequalification`], idempotency),
  );

  registerMeRoutes(api, "partner");
  registerEnumRoutes(api);
  registerPrequalificationRoutes(api);
  registerLeadRoutes(api);
  registerApplicationLinkRoutes(api);
  registerDocumentRoutes(api);
  registerWebhookRoutes(api, "partner");
  registerEventRoutes(api, "partner");
  registerOfferRoutes(api);
  registerCommissionRoutes(api);
  describeHealth(api);

  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer" });
  api.openAPIRegistry.registerComponent("securitySchemes", "apiKey", { type: "apiKey", in: "header", name: "X-API-Key" });
  serveDocument(api, "partner", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Referral Funding Service: partner API",
      version: "1.0.0",
      description: "For introducers who open, fill in, submit and follow leads. Errors are application/problem+json; branch on `error.code`.",
    },
    servers: [{ url: new URL(PARTNER_BASE, c.req.url).toString() }],
  }), () => import("../reference/webhook-events").then((m) => m.registerPartnerWebhookEvents(api)));
  return api;
}
