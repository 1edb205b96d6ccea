/**
 * The one place the service reads its signing secret (signed file links, hub
 * links, pagination cursors, sealed webhook secrets).
 *
 * `DEPLOYMENT` says what kind of deployment runs: `local` (the default in
 * wrangler.toml [vars], so a fresh clone started with plain `wrangler dev`
 * works) falls back to a fixed, public, local-only secret when SIGNING_SECRET
 * is not set; anything else is a real deployment (`npm run deploy` sets
 * `production`), where an absent SIGNING_SECRET is a configuration gap: every
 * request but /health is refused with 503 `service_misconfigured` naming it
 * (src/middleware/configuration.ts), never a 500 on a partner's write.
 */
import type { Bindings } from "./env";
import { ApiError } from "./errors";

/** Public by design: anything signed with it can be forged, so it only ever keys local state. */
export const LOCAL_DEVELOPMENT_SIGNING_SECRET = "rfs-local-development-only-signing-secret-never-deploy";

export type SigningEnv = Pick<Bindings, "SIGNING_SECRET" | "DEPLOYMENT">;

/** Only an explicit `local` relaxes anything: a missing or mistyped DEPLOYMENT counts as a real deployment. */
export const isLocalDeployment = (env: Pick<Bindings, "DEPLOYMENT">) => env.DEPLOYMENT === "local";

/** Names of the secrets this deployment needs and lacks (empty when it can serve). */
export function missingSecrets(env: SigningEnv): string[] {
  return env.SIGNING_SECRET || isLocalDeployment(env) ? [] : ["SIGNING_SECRET"];
}

export const misconfigured = (missing: string[]) =>
  new ApiError(
    "service_misconfigured",
    `The service is not configured: the secret ${missing.join(", ")} is not set on this deployment. The operator sets it with \`wrangler secret put ${missing[0]}\`.`,
  );

export function signingSecretOf(env: SigningEnv): string {
  if (env.SIGNING_SECRET) return env.SIGNING_SECRET;
  if (isLocalDeployment(env)) return LOCAL_DEVELOPMENT_SIGNING_SECRET;
  throw misconfigured(["SIGNING_SECRET"]);
}
