import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../app-env";
import { timingSafeEqual } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { operatorIdempotency } from "../../middleware/idempotency";
import { countFailedAttempt } from "../../middleware/rate-limit";
import { createRouter } from "../router";
import { registerAttributionRoutes } from "./attributions/handlers";
import { registerCommissionRoutes } from "./commissions/handlers";
import { registerOrganisationRoutes } from "./organisations/handlers";
import { registerInvitationRoutes } from "./invitations/handlers";
import { registerOperatorDocument } from "./openapi";
import { registerProductRoutes } from "./products/handlers";

export const ADMIN_BASE = "/admin/v1";
const OPENAPI_PATH = `${ADMIN_BASE}/openapi.json`;

/**
 * The operator API exists only where ADMIN_TOKEN is configured; elsewhere it
 * is indistinguishable from an unknown route. Where it exists, its OpenAPI
 * document is readable without the token (docs/deploy.md): it describes the
 * routes, which the source already shows, and holds no data or secret.
 */
const operatorOnly = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw new Refusal("not_found", `No route for ${c.req.method} ${c.req.path}.`);
  if (c.req.method === "GET" && c.req.path === OPENAPI_PATH) return next();
  const presented = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1]?.trim() ?? "";
  if (!timingSafeEqual(presented, expected)) {
    // A failed attempt counts against the sender's address, in the bucket every failed authentication
    // shares (429 once spent); the operator's own token is never counted, so nobody's guesses block it.
    await countFailedAttempt(c);
    throw new Refusal("unauthorized", "The operator API needs Authorization: Bearer <ADMIN_TOKEN>.");
  }
  await next();
});

export function createAdminApi() {
  const admin = createRouter();
  admin.use("*", operatorOnly, operatorIdempotency);
  registerOrganisationRoutes(admin);
  registerInvitationRoutes(admin);
  registerProductRoutes(admin);
  registerAttributionRoutes(admin);
  registerCommissionRoutes(admin);
  registerOperatorDocument(admin, ADMIN_BASE);
  return admin;
}
