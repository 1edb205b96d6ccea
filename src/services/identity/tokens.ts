import type { LimitPolicy, RateLimitVerdict } from "../../durable-objects/key-authority";
import type { Environment } from "../../domain/identity/keys";
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "../../domain/identity/tokens";
import { Refusal } from "../../lib/refusal";
import type { Deps } from "../deps";
import { mintAccessToken } from "./key-authority";

interface TokenAnswer {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  environment: Environment;
}

/**
 * The client-credentials exchange. Only partner secret keys mint tokens: lender
 * keys authenticate every call with X-API-Key, and publishable keys live in
 * web pages where a token would be no safer than the key. The key's Durable
 * Object checks the secret and, only when it matches, counts the exchange in
 * the key's own window and records the token (see services/identity/key-authority.ts).
 * A pair that opens no key is `unauthorized`, uncounted here: the door counts
 * it against the sender's address. `token` is null when the key's exchange
 * window is spent; the door refuses it `rate_limited` from `verdict`.
 */
export async function exchangeClientCredentials(deps: Deps, clientId: string, clientSecret: string, policy: LimitPolicy): Promise<{ verdict: RateLimitVerdict; token: TokenAnswer | null }> {
  const exchange = await mintAccessToken(deps, clientId, clientSecret, policy);
  if (!exchange.admitted) throw new Refusal("unauthorized", "client_id and client_secret do not match an active partner secret key.");
  if (exchange.token === null) return { verdict: exchange.verdict, token: null };
  return {
    verdict: exchange.verdict,
    token: { access_token: exchange.token, token_type: "Bearer", expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: "partner", environment: exchange.key.environment },
  };
}
