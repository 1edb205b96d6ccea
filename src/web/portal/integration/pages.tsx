import type { Hono } from "hono";
import type { PortalEnv } from "../context";
import { requireAdmin } from "../require-role";
import { registerKeyPages } from "./keys";
import { registerWebhookPages } from "./webhooks";

/** API keys and webhook endpoints, for partners and lenders alike; admins only (requireAdmin). */
export function registerIntegrationPages(portal: Hono<PortalEnv>) {
  for (const path of ["/keys", "/keys/*", "/webhooks", "/webhooks/*"]) portal.use(path, requireAdmin);
  registerKeyPages(portal);
  registerWebhookPages(portal);
}
