import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Caller } from "../domain/identity/caller";
import { parseKey, type KeyKind } from "../domain/identity/keys";
import { looksLikeAccessToken } from "../domain/identity/tokens";
import { findActiveKey, findKeyByToken } from "../db/keys";
import { sha256Hex, timingSafeEqual } from "../lib/crypto";
import type { AppEnv } from "../app-env";
import { ApiError } from "../lib/errors";
import { consumeRateLimit } from "./rate-limit";

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

const unauthorized = (detail: string) => new ApiError("unauthorized", detail);

async function resolveCredential(c: Context<AppEnv>, options: AuthOptions) {
  const db = c.get("db");
  const authorization = c.req.header("Authorization");
  const apiKey = c.req.header("X-API-Key");

  if (options.bearer && authorization !== undefined) {
    const [scheme, token] = authorization.trim().split(/\s+/, 2);
    if (scheme?.toLowerCase() !== "bearer" || !token) throw unauthorized(`Malformed Authorization header. ${options.hint}`);
    if (!looksLikeAccessToken(token)) throw unauthorized("The bearer token is malformed, unknown, expired or revoked.");
    const found = await findKeyByToken(db, await sha256Hex(token), Math.floor(Date.now() / 1000));
    if (!found) throw unauthorized("The bearer token is malformed, unknown, expired or revoked.");
    return { ...found, via: "bearer" as const };
  }
  if (apiKey === undefined) throw unauthorized(`No credentials were sent. ${options.hint}`);

  const parsed = parseKey(apiKey);
  if (!parsed?.secret) throw unauthorized("The API key is malformed, unknown or revoked.");
  const found = await findActiveKey(db, parsed.keyId);
  // The hash is compared even when the row is missing so both paths cost the same.
  const presentedHash = await sha256Hex(apiKey.trim());
  if (!timingSafeEqual(presentedHash, found?.key.keyHash ?? "0".repeat(64)) || !found) {
    throw unauthorized("The API key is malformed, unknown or revoked.");
  }
  return { ...found, via: "api_key" as const };
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
      await consumeRateLimit(c, `ip:${c.req.header("CF-Connecting-IP") ?? "local"}`);
      throw error;
    }
    const { key, organisationKind, via } = credential;
    if (c.get("sandboxHost") && key.environment === "live") {
      throw new ApiError("environment_mismatch", "This host is a sandbox host and accepts sandbox keys only; use the production host for live keys.");
    }
    if (!options.accept.includes(key.kind)) {
      const accepted = options.accept.filter((k) => k !== "publishable").map((k) => KIND_NAMES[k]).join(" or ");
      throw new ApiError("wrong_key_type", `A ${KIND_NAMES[key.kind]} cannot call this API; it takes a ${accepted}.`);
    }
    // Publishable keys live in web pages, so they reach only the browser-safe routes.
    if (key.kind === "publishable" && !options.browserSafe?.(c.req.path)) {
      throw new ApiError("wrong_key_type", "A publishable key can only call prequalification and the enum lists; use a partner secret key.");
    }
    const caller: Caller = {
      organisationId: key.organisationId,
      organisationKind,
      keyId: key.id,
      clientId: key.clientId,
      keyKind: key.kind,
      environment: key.environment,
      allowedOrigins: key.allowedOrigins,
      via,
    };
    c.set("caller", caller);
    await next();
  });
