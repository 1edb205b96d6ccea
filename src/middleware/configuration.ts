import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { misconfigured, missingSecrets } from "../lib/signing-secret";

/**
 * A real deployment without its secrets refuses every request (but /health,
 * mounted before this) with 503 `service_misconfigured` naming what is missing,
 * and logs each refusal: loud and early, before any read or write.
 */
export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  const missing = missingSecrets(c.env, new URL(c.req.url).hostname);
  if (missing.length > 0) {
    console.error(
      `service_misconfigured: the secret ${missing.join(", ")} is not set (DEPLOYMENT=${c.env.DEPLOYMENT ?? "unset"}); every request but /health is refused until \`wrangler secret put ${missing[0]}\`.`,
    );
    throw misconfigured(missing);
  }
  await next();
});
