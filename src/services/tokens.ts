import { parseKey } from "../domain/identity/keys";
import { ACCESS_TOKEN_LIFETIME_SECONDS, newAccessToken } from "../domain/identity/tokens";
import type { Database } from "../db/client";
import { findActiveKey, insertAccessToken } from "../db/keys";
import { sha256Hex, timingSafeEqual } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { nowIso } from "../lib/ids";

/**
 * The client-credentials exchange. Only partner secret keys mint tokens: lender
 * keys authenticate every call with X-API-Key, and publishable keys live in
 * web pages where a token would be no safer than the key.
 */
export async function exchangeClientCredentials(db: Database, clientId: string, clientSecret: string) {
  const refused = new ApiError("unauthorized", "client_id and client_secret do not match an active partner secret key.");
  const parsed = parseKey(clientSecret);
  const found = parsed?.secret ? await findActiveKey(db, parsed.keyId) : null;
  const presentedHash = await sha256Hex(clientSecret.trim());
  if (!found || !timingSafeEqual(presentedHash, found.key.keyHash)) throw refused;
  if (!timingSafeEqual(found.key.clientId, clientId.trim()) || found.key.kind !== "partner") throw refused;

  const token = newAccessToken();
  const expiresAt = Math.floor(Date.now() / 1000) + ACCESS_TOKEN_LIFETIME_SECONDS;
  await insertAccessToken(db, { tokenHash: await sha256Hex(token), keyId: found.key.id, expiresAt, createdAt: nowIso() });
  return {
    access_token: token,
    token_type: "Bearer" as const,
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    scope: "partner",
    environment: found.key.environment,
  };
}
