import type { RateLimiter, RateLimitVerdict } from "../durable-objects/rate-limiter";
import type { Caller } from "../domain/identity/caller";

export interface Bindings {
  DB: D1Database;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  WEBHOOK_QUEUE: Queue;
  DOCUMENTS: R2Bucket;
  /** Comma list of hosts that accept sandbox keys only. */
  SANDBOX_HOSTNAMES: string;
  RATE_LIMIT_PER_MINUTE: string;
  /** "true" only in local configuration: lets webhooks reach http and loopback receivers. */
  ALLOW_PRIVATE_WEBHOOKS: string;
  /** "true": dispatch outbox events right after a write; the workerd test suite turns it off to drive dispatch itself. */
  DISPATCH_AFTER_WRITE?: string;
  /** DNS-over-HTTPS JSON endpoint used to resolve webhook hosts; default https://cloudflare-dns.com/dns-query. */
  DOH_URL?: string;
  /** Operator API bearer token; without it /admin/v1 answers 404. */
  ADMIN_TOKEN?: string;
  /** Key for signed download links, hub links, cursors and sealed webhook secrets; read only through signingSecretOf (lib/signing-secret.ts). */
  SIGNING_SECRET?: string;
  /** "local" (wrangler.toml default): an absent SIGNING_SECRET falls back to a local-only one; "production" (npm run deploy) requires it. */
  DEPLOYMENT?: string;
  /** Origin every handed-out link starts with (signed file links, the client hub); default http://localhost:8787. */
  PUBLIC_URL?: string;
}

export interface Variables {
  requestId: string;
  /** Set by the auth middleware on every authenticated route. */
  caller: Caller;
  /** The key's rate-limit verdict, counted during authentication and applied by `rateLimitPerKey`. */
  rateLimit: RateLimitVerdict;
  /** Whether the request arrived on a sandbox-only host. */
  sandboxHost: boolean;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
