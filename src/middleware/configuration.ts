import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { misconfigured, missingSecrets } from "../lib/signing-secret";
import { log } from "../lib/logger";

/**
 * A real deployment without its secrets refuses every request (but /health,
 * mounted before this) with 503 `service_misconfigured` naming what is missing,
 * and logs each refusal: loud and early, before any read or write.
 */
export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  const missing = missingSecrets(c.env, new URL(c.req.url).hostname);
  if (missing.length > 0) {
    log("error", "service_misconfigured", {
      request_id: c.get("requestId"),
      missing: missing.join(", "),
      deployment: c.env.DEPLOYMENT ?? "unset",
      detail: `every request but /health is refused until \`wrangler secret put ${missing[0]}\``,
    });
    throw misconfigured(missing);
  }
  await next();
});
