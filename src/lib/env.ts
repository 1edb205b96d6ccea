import type { RegisterEnv } from "./register-env";

/**
 * The Worker's bindings. `Env` is generated from wrangler.toml by `npx wrangler types
 * --include-runtime=false --strict-vars=false` (worker-configuration.d.ts), so the bindings in
 * code and in the configuration cannot drift; rerun it after changing wrangler.toml.
 * Secrets are set with `wrangler secret put` and are not in wrangler.toml, so they are named here,
 * as are the company-register sources' optional vars and secrets (RegisterEnv, lib/register-env.ts).
 */
export interface Secrets extends RegisterEnv {
  /** Operator API bearer token; without it /admin/v1 is `not_found`. */
  ADMIN_TOKEN?: string;
  /** Key for signed download links, hub links, cursors and sealed webhook secrets; read only through signingSecretOf (lib/signing-secret.ts). */
  SIGNING_SECRET?: string;
  /** Optional var: days a funded lead keeps its company for its introducer (default 90; docs/leads.md, "Attribution"). */
  ATTRIBUTION_WINDOW_DAYS?: string;
}

/**
 * Optional vars that shorten a wait for the workerd test suite (vitest.config.mts sets them). No
 * wrangler.toml environment sets them, so a deployment keeps each default. docs/testing.md lists them.
 */
export interface TestTunables {
  /** The DNS-over-HTTPS lookup's timeout in milliseconds (default 3000; src/services/webhooks/dns-over-https.ts). */
  DOH_TIMEOUT_MS?: string;
}

export type Bindings = Env & Secrets & TestTunables;
