import { randomToken } from "../../lib/crypto";
import { keyPrefix, type Environment } from "./keys";

export const ACCESS_TOKEN_PREFIX = "rfs_at_";
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

/**
 * `rfs_at_<environment>_<key id>_<48 random characters>`. The token names the
 * partner key it was minted from, so a request is routed straight to that
 * key's Durable Object, which holds the token's hash: no database lookup on
 * the way. Only the random part is secret; only the hash is stored.
 */
export const newAccessToken = (environment: Environment, keyId: string) => `${ACCESS_TOKEN_PREFIX}${environment}_${keyId}_${randomToken(48)}`;

const TOKEN_PATTERN = /^rfs_at_(sandbox|live)_([a-z0-9]{16})_[a-z0-9]{48}$/;

/** The partner key a well-formed token names; null for anything else. */
export function parseAccessToken(text: string): { keyId: string; clientId: string } | null {
  const match = TOKEN_PATTERN.exec(text);
  if (!match) return null;
  return { keyId: match[2], clientId: `${keyPrefix("partner", match[1] as Environment)}${match[2]}` };
}
