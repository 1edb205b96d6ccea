import { authenticate } from "../../middleware/auth";
import { dispatchAfterWrite } from "../../middleware/dispatch-after-write";
import { idempotency } from "../../middleware/idempotency";
import { rateLimitPerKey } from "../../middleware/rate-limit";
import { unless } from "../../middleware/unless";
import { serveDocument } from "../reference/document";
import { createRouter } from "../router";
import { registerMeRoutes } from "../shared/me/handlers";
import { registerEventRoutes } from "../shared/events/handlers";
import { registerWebhookRoutes } from "../shared/webhooks/handlers";
import { registerDealRoutes } from "./deals/handlers";
import { registerDocumentRoutes } from "./documents/handlers";
import { registerReferralRoutes } from "./referrals/handlers";
import { registerLenderCommissionRoutes } from "./commissions/handlers";
import { registerTestDealRoutes } from "./test-deals/handlers";
import { describeHealth } from "../health/route";

export const LENDER_BASE = "/v1";

/** The only lender path served without a credential; matched exactly, never by suffix. */
const PUBLIC_PATHS = [`${LENDER_BASE}/openapi.json`];

export function createLenderApi() {
  const api = createRouter();
  api.use("*", dispatchAfterWrite);
  api.use(
    "*",
    unless(PUBLIC_PATHS, authenticate({ accept: ["lender"], bearer: false, hint: "Send X-API-Key: <lender key>." })),
    unless(PUBLIC_PATHS, rateLimitPerKey),
    unless(PUBLIC_PATHS, idempotency),
  );

  registerMeRoutes(api, "lender");
  registerWebhookRoutes(api, "lender");
  registerEventRoutes(api, "lender");
  registerDealRoutes(api);
  registerDocumentRoutes(api);
  registerTestDealRoutes(api);
  registerReferralRoutes(api);
  registerLenderCommissionRoutes(api);
  describeHealth(api);

  api.openAPIRegistry.registerComponent("securitySchemes", "apiKey", { type: "apiKey", in: "header", name: "X-API-Key" });
  serveDocument(api, "lender", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Referral Funding Service: lender API",
      version: "1.0.0",
      description: "For funding providers who receive deals, make offers, request documents and read the client conversation.",
    },
    servers: [{ url: new URL(LENDER_BASE, c.req.url).toString() }],
  }), () => import("../reference/webhook-events").then((m) => m.registerLenderWebhookEvents(api)));
  return api;
}
