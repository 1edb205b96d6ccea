import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Caller } from "../domain/identity/caller";
import type { KeyKind } from "../domain/identity/keys";
import type { AppEnv } from "../app-env";
import { clientAddress } from "../lib/client-address";
import { Refusal } from "../lib/refusal";
import { admitApiKey, admitBearerToken } from "../services/identity/key-authority";
import { useEnvironment } from "./database";
import { countFailedAttempt, limiterUnavailable, limitPolicy } from "./rate-limit";

const KIND_NAMES: Record<KeyKind, string> = { partner: "partner secret key", lender: "lender key", publishable: "publishable key" };

interface AuthOptions {
  /** Key kinds this API accepts. */
  accept: KeyKind[];
  /** Whether `Authorization: Bearer` tokens are accepted (partner API). */
  bearer: boolean;
  /** Shown in the 401 message so integrators know what to send. */
  hint: string;
  /** Paths a publishable key may call (prequalification and enums). */
  browserSafe?: (path: string) => boolean;
}

const unauthorized = (detail: string) => new Refusal("unauthorized", detail);

/**
 * One call to the key's Durable Object checks the credential and counts the
 * request; no D1 query. A key authority that cannot be reached fails closed
 * (503 with Retry-After, see `limiterUnavailable`). The verdict is applied by `rateLimitPerKey`, after the
 * host and key-type rules, so their refusals keep their own status.
 */
async function resolveCredential(c: Context<AppEnv>, options: AuthOptions) {
  const authorization = c.req.header("Authorization");
  const apiKey = c.req.header("X-API-Key");
  const policy = limitPolicy(c);
  // Where the request comes from: its page (a publishable key refuses a foreign one uncounted) and its
  // address (a publishable key's share per address).
  const from = { origin: c.req.header("Origin"), clientAddress: clientAddress(c.req.raw) };

  if (options.bearer && authorization !== undefined) {
    const [scheme, token] = authorization.trim().split(/\s+/, 2);
    if (scheme?.toLowerCase() !== "bearer" || !token) throw unauthorized(`Malformed Authorization header. ${options.hint}`);
    const admission = await admitBearerToken(c.get("deps"), token, policy, from).catch((error) => {
      throw limiterUnavailable(c, error);
    });
    if (!admission.admitted) throw unauthorized("The bearer token is malformed, unknown, expired or revoked.");
    return { ...admission, via: "bearer" as const };
  }
  if (apiKey === undefined) throw unauthorized(`No credentials were sent. ${options.hint}`);
  const admission = await admitApiKey(c.get("deps"), apiKey, policy, from).catch((error) => {
    throw limiterUnavailable(c, error);
  });
  if (!admission.admitted) throw unauthorized("The API key is malformed, unknown or revoked.");
  return { ...admission, via: "api_key" as const };
}

/**
 * Authenticates the caller, then applies the host and key-type rules. Failed
 * attempts are counted against the client address so keys cannot be guessed
 * at speed; successful ones are counted against the key by `rateLimitPerKey`.
 */
export const authenticate = (options: AuthOptions) =>
  createMiddleware<AppEnv>(async (c, next) => {
    let credential;
    try {
      credential = await resolveCredential(c, options);
    } catch (error) {
      await countFailedAttempt(c);
      throw error;
    }
    const { key, verdict, via, bookmark } = credential;
    if (c.get("sandboxHost") && key.environment === "live") {
      throw new Refusal("environment_mismatch", "This host is a sandbox host and accepts sandbox keys only; use the production host for live keys.");
    }
    if (!options.accept.includes(key.kind)) {
      const accepted = options.accept.filter((k) => k !== "publishable").map((k) => KIND_NAMES[k]).join(" or ");
      throw new Refusal("wrong_key_type", `A ${KIND_NAMES[key.kind]} cannot call this API; it takes a ${accepted}.`);
    }
    // Publishable keys live in web pages, so they reach only the browser-safe routes.
    if (key.kind === "publishable" && !options.browserSafe?.(c.req.path)) {
      throw new Refusal("wrong_key_type", "A publishable key can only call prequalification and the enum lists; use a partner secret key.");
    }
    const caller: Caller = {
      organisationId: key.organisationId,
      organisationKind: key.organisationKind,
      keyId: key.keyId,
      clientId: key.clientId,
      keyKind: key.kind,
      environment: key.environment,
      allowedOrigins: key.allowedOrigins,
      via,
    };
    c.set("caller", caller);
    c.set("rateLimit", verdict);
    // The caller's environment chooses the data database (docs/capacity.md), at the key's latest bookmark.
    useEnvironment(c, caller.environment, bookmark);
    await next();
  });
