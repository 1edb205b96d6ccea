/**
 * The one place the service reads its signing secret (signed file links, hub
 * links, pagination cursors, sealed webhook secrets).
 *
 * `DEPLOYMENT` says what kind of deployment runs: `local` (the default in
 * wrangler.toml [vars], so a fresh clone started with plain `wrangler dev`
 * works) falls back to a fixed, public, local-only secret when SIGNING_SECRET
 * is not set; anything else is a real deployment (`npm run deploy` sets
 * `production`), where an absent SIGNING_SECRET is a configuration gap: every
 * request but /health is refused `service_misconfigured` naming it
 * (src/middleware/configuration.ts), never an `internal_error` on a partner's write.
 */
import type { Bindings } from "./env";
import { Refusal } from "./refusal";

/** Public by design: anything signed with it can be forged, so it only ever keys local state. */
export const LOCAL_DEVELOPMENT_SIGNING_SECRET = "rfs-local-development-only-signing-secret-never-deploy";

type SigningEnv = Pick<Bindings, "SIGNING_SECRET" | "DEPLOYMENT"> & { PUBLIC_URL?: string };

/** Only an explicit `local` relaxes anything: a missing or mistyped DEPLOYMENT counts as a real deployment. */
export const isLocalDeployment = (env: Pick<Bindings, "DEPLOYMENT">) => env.DEPLOYMENT === "local";

/**
 * Names that only ever reach this machine: loopback addresses, `localhost` and
 * the names RFC 6761 reserves for it and for testing (`*.localhost`, `*.test`).
 */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host.endsWith(".test") || host === "::1" || host === "0.0.0.0" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The origin links start at when PUBLIC_URL is unset (services/views/links.ts uses the same). */
const DEFAULT_PUBLIC_URL = "http://localhost:8787";

/** Whether the deployment's own PUBLIC_URL is a local name: a deployment that says it lives elsewhere is never local. */
export function publicUrlIsLocal(env: Pick<SigningEnv, "PUBLIC_URL">): boolean {
  try {
    return isLocalHostname(new URL(env.PUBLIC_URL ?? DEFAULT_PUBLIC_URL).hostname);
  } catch {
    return false;
  }
}

/**
 * The public local-only key may stand in for SIGNING_SECRET only when DEPLOYMENT is `local` AND the
 * deployment's own PUBLIC_URL is a local name, on every path: requests (whose host must be local
 * too), the cron and the queue consumers (which have no request host). A Worker deployed with the
 * top-level config by mistake, whose links point at a public host, never signs with it.
 */
export const localFallbackAllowed = (env: SigningEnv, hostname?: string) =>
  isLocalDeployment(env) && publicUrlIsLocal(env) && (hostname === undefined || isLocalHostname(hostname));

/**
 * Names of the secrets this deployment needs and lacks (empty when it can
 * serve). The local fallback is honoured only as `localFallbackAllowed` says:
 * a Worker deployed with wrangler.toml's `DEPLOYMENT=local` by mistake (a
 * plain `wrangler deploy`) and reached on a public host, or whose PUBLIC_URL is
 * public, is refused, not served with a secret anyone can read in this repository.
 */
export function missingSecrets(env: SigningEnv, hostname?: string): string[] {
  if (env.SIGNING_SECRET) return [];
  if (localFallbackAllowed(env, hostname)) return [];
  return ["SIGNING_SECRET"];
}

export const misconfigured = (missing: string[]) =>
  new Refusal(
    "service_misconfigured",
    `The service is not configured: the secret ${missing.join(", ")} is not set on this deployment. The operator sets it with \`wrangler secret put ${missing[0]}\`.`,
  );

/** The refusal for a secret that is set but too weak for a deployed environment (lib/admin-token.ts). The value itself is never named. */
export const weaklyConfigured = (weak: string[]) =>
  new Refusal(
    "service_misconfigured",
    `The service is not configured: the secret ${weak.join(", ")} is too weak for a deployed environment (at least 32 random bytes, e.g. \`openssl rand -hex 32\`). The operator replaces it with \`wrangler secret put ${weak[0]}\`.`,
  );

export function signingSecretOf(env: SigningEnv): string {
  if (env.SIGNING_SECRET) return env.SIGNING_SECRET;
  if (localFallbackAllowed(env)) return LOCAL_DEVELOPMENT_SIGNING_SECRET;
  throw misconfigured(["SIGNING_SECRET"]);
}
