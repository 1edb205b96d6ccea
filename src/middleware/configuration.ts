import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/env";
import { misconfigured, missingSecrets } from "../lib/signing-secret";

let logged = false;

/**
 * A real deployment without its secrets refuses every request (but /health,
 * mounted before this) with 503 `service_misconfigured` naming what is missing,
 * and says so once per isolate in the log: loud and early, before any write.
 */
export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  const missing = missingSecrets(c.env);
  if (missing.length > 0) {
    if (!logged) {
      logged = true;
      console.error(`service_misconfigured: secret ${missing.join(", ")} is not set (DEPLOYMENT=${c.env.DEPLOYMENT ?? "unset"}); every request but /health is refused until \`wrangler secret put ${missing[0]}\`.`);
    }
    throw misconfigured(missing);
  }
  await next();
});
