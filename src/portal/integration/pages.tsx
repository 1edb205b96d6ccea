import type { Hono } from "hono";
import type { PortalEnv } from "../context";

/** API keys and webhook endpoints, for partners and lenders alike; admins only (requireAdmin). */
export function registerIntegrationPages(portal: Hono<PortalEnv>) {
  void portal;
}
