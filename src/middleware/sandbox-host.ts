import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";

/** Hosts listed in SANDBOX_HOSTNAMES accept sandbox keys only; the auth middleware enforces it. */
export const sandboxHost = createMiddleware<AppEnv>(async (c, next) => {
  const hosts = (c.env.SANDBOX_HOSTNAMES ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
  c.set("sandboxHost", hosts.includes(new URL(c.req.url).hostname.toLowerCase()));
  await next();
});
