import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { timingSafeEqual } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { createRouter } from "../router";
import { limitRequestBody } from "../middleware/body-limit";
import { registerOrganisationRoutes } from "./organisations/handlers";
import { registerProductRoutes } from "./products/handlers";

/**
 * The operator API exists only where ADMIN_TOKEN is configured; elsewhere it
 * is indistinguishable from an unknown route.
 */
const operatorOnly = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}.`);
  const presented = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1]?.trim() ?? "";
  if (!timingSafeEqual(presented, expected)) throw new ApiError("unauthorized", "The operator API needs Authorization: Bearer <ADMIN_TOKEN>.");
  await next();
});

export function createAdminApi() {
  const admin = createRouter();
  admin.use("*", operatorOnly, limitRequestBody);
  registerOrganisationRoutes(admin);
  registerProductRoutes(admin);
  return admin;
}
