import { ACCESS_TOKEN_LIFETIME_SECONDS } from "../../domain/identity/tokens";
import { Refusal } from "../../lib/refusal";
import type { Deps } from "../deps";
import { mintAccessToken } from "./key-authority";

/**
 * The client-credentials exchange. Only partner secret keys mint tokens: lender
 * keys authenticate every call with X-API-Key, and publishable keys live in
 * web pages where a token would be no safer than the key. The key's Durable
 * Object checks the secret and records the token (see services/identity/key-authority.ts).
 */
export async function exchangeClientCredentials(deps: Deps, clientId: string, clientSecret: string) {
  const minted = await mintAccessToken(deps, clientId, clientSecret);
  if (!minted) throw new Refusal("unauthorized", "client_id and client_secret do not match an active partner secret key.");
  return {
    access_token: minted.token,
    token_type: "Bearer" as const,
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    scope: "partner",
    environment: minted.key.environment,
  };
}
