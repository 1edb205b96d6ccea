import type { Hono } from "hono";
import type { PortalEnv } from "../context";

/** Sign-in and invitation pages: reached without a session. */
export function registerPublicAccessPages(portal: Hono<PortalEnv>) {
  void portal;
}

/** Members and the audit log: admins only (requireAdmin). */
export function registerAccessPages(portal: Hono<PortalEnv>) {
  void portal;
}
