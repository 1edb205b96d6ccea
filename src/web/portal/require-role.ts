import { createMiddleware } from "hono/factory";
import { Refusal } from "../../lib/refusal";
import type { PortalEnv } from "./context";

/**
 * Admin pages (keys, webhooks, members, audit log) for admins only; pages of
 * the other organisation kind (deals for a partner, leads for a lender) for
 * nobody. Both are `not_found`, as for a record of another organisation: the
 * portal's error handler answers its one 404 page, and nothing tells a member
 * what exists beyond their reach.
 */
export const requireAdmin = createMiddleware<PortalEnv>(async (c, next) => {
  if (c.get("viewer").role !== "admin") throw new Refusal("not_found", "No such page.");
  return next();
});

export const requireKind = (kind: "partner" | "lender") =>
  createMiddleware<PortalEnv>(async (c, next) => {
    if (c.get("viewer").organisationKind !== kind) throw new Refusal("not_found", "No such page.");
    return next();
  });
