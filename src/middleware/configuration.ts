import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { weakSecrets } from "../lib/admin-token";
import { misconfigured, missingSecrets, weaklyConfigured } from "../lib/signing-secret";
import { log } from "../lib/logger";

/**
 * A real deployment without its secrets, or with an ADMIN_TOKEN under the rule of
 * lib/admin-token.ts, refuses every request (but /health, mounted before this)
 * with 503 `service_misconfigured` naming the secret, and logs each refusal: loud
 * and early, before any read or write. The log names the secret, never its value.
 */
export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  const hostname = new URL(c.req.url).hostname;
  const missing = missingSecrets(c.env, hostname);
  const weak = weakSecrets(c.env, hostname);
  if (missing.length > 0 || weak.length > 0) {
    const first = missing[0] ?? weak[0];
    log("error", "service_misconfigured", {
      request_id: c.get("requestId"),
      missing: missing.length > 0 ? missing.join(", ") : undefined,
      weak: weak.length > 0 ? weak.join(", ") : undefined,
      deployment: c.env.DEPLOYMENT ?? "unset",
      detail: `every request but /health is refused until \`wrangler secret put ${first}\``,
    });
    throw missing.length > 0 ? misconfigured(missing) : weaklyConfigured(weak);
  }
  await next();
});
