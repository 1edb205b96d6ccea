/**
 * `GET /health` itself, without its OpenAPI description (route.ts): the probe is mounted in every
 * door's app at startup, so it must not bring zod or the document builder with it.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";

export const HEALTH_PATH = "/health";

export function mountHealth(app: Hono<AppEnv>) {
  app.get(HEALTH_PATH, (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ status: "ok" as const }, 200);
  });
}
