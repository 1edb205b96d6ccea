import { createMiddleware } from "hono/factory";
import type { PortalEnv } from "./context";
import { notFoundPage } from "./refused-page";

/**
 * Admin pages (keys, webhooks, members, audit log) for admins only; pages of
 * the other organisation kind (deals for a partner, leads for a lender) for
 * nobody. Both answer 404, as for a record of another organisation: nothing
 * tells a member what exists beyond their reach.
 */
export const requireAdmin = createMiddleware<PortalEnv>(async (c, next) => {
  if (c.get("viewer").role !== "admin") return c.html(notFoundPage(), 404);
  return next();
});

export const requireKind = (kind: "partner" | "lender") =>
  createMiddleware<PortalEnv>(async (c, next) => {
    if (c.get("viewer").organisationKind !== kind) return c.html(notFoundPage(), 404);
    return next();
  });
