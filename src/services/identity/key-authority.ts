/**
 * The isolate's side of the key's Durable Object (the authority for the key):
 * credentials are parsed and hashed here, then checked and counted there in
 * one call. Nothing about a key is kept in the isolate, so nothing here can
 * outlive a revocation.
 */
import type { Admission, KeyAddress, LimitPolicy, RateLimitVerdict, RequestSource } from "../../durable-objects/key-authority";
import type { KeyFacts } from "../../domain/identity/key-state";
import { parseKey } from "../../domain/identity/keys";
import { ACCESS_TOKEN_LIFETIME_SECONDS, newAccessToken, parseAccessToken } from "../../domain/identity/tokens";
import { sha256Hex } from "../../lib/crypto";
import type { Deps } from "../deps";

const NOT_ADMITTED: Admission = { admitted: false };

/** The Durable Object of a key; the name is the one the per-key limit has always used. */
export const keyAuthority = ({ env }: Deps, clientId: string) => env.KEY_AUTHORITY.get(env.KEY_AUTHORITY.idFromName(`key:${clientId}`));

/**
 * An `X-API-Key` value: admitted and counted, or not admitted (malformed, unknown, wrong secret, revoked).
 * `from.origin` (the request's `Origin`) lets the object refuse a publishable key's foreign page before
 * counting; `from.clientAddress` is the address a publishable key's per-address share is counted for.
 */
export async function admitApiKey(deps: Deps, presented: string, policy: LimitPolicy, from: RequestSource): Promise<Admission> {
  const parsed = parseKey(presented);
  if (!parsed?.secret) return NOT_ADMITTED;
  const address: KeyAddress = { keyId: parsed.keyId, clientId: parsed.clientId };
  return keyAuthority(deps, parsed.clientId).authenticate(address, { keyHash: await sha256Hex(presented.trim()) }, policy, from);
}

/** A bearer token: routed by the key it names, admitted only if that key holds its hash, unexpired, and is not revoked. */
export async function admitBearerToken(deps: Deps, token: string, policy: LimitPolicy, from: RequestSource): Promise<Admission> {
  const address = parseAccessToken(token);
  if (!address) return NOT_ADMITTED;
  return keyAuthority(deps, address.clientId).authenticate(address, { tokenHash: await sha256Hex(token) }, policy, from);
}

/**
 * The client-credentials exchange: not admitted when the pair does not name an active partner secret
 * key; otherwise counted in the key's exchange window, with the token when the window allowed it.
 */
type Exchange = { admitted: false } | { admitted: true; key: KeyFacts; verdict: RateLimitVerdict; token: string | null };

export async function mintAccessToken(deps: Deps, clientId: string, clientSecret: string, policy: LimitPolicy): Promise<Exchange> {
  const parsed = parseKey(clientSecret);
  if (!parsed?.secret || parsed.clientId !== clientId.trim()) return { admitted: false };
  const token = newAccessToken(parsed.environment, parsed.keyId);
  const expiresAt = Math.floor(deps.clock().getTime() / 1000) + ACCESS_TOKEN_LIFETIME_SECONDS;
  const issue = await keyAuthority(deps, parsed.clientId).issueToken(
    { keyId: parsed.keyId, clientId: parsed.clientId },
    await sha256Hex(clientSecret.trim()),
    { hash: await sha256Hex(token), expiresAt },
    policy,
  );
  if (!issue.admitted) return { admitted: false };
  return { admitted: true, key: issue.key, verdict: issue.verdict, token: issue.verdict.allowed ? token : null };
}

/** Tells the key's object to drop what it holds; called once the revocation is written to D1. */
export async function forgetKey(deps: Deps, clientId: string) {
  const parsed = parseKey(clientId);
  if (parsed) await keyAuthority(deps, parsed.clientId).forget();
}

/**
 * Hands the key's object the D1 bookmark of a request by this key that wrote; the object keeps the later
 * of it and what it holds, and opens the key's next request there (read-your-writes, docs/capacity.md).
 */
export async function rememberKeyBookmark(deps: Deps, clientId: string, bookmark: string) {
  // The bookmark is of the key's environment's database, which `deps` reads (docs/capacity.md).
  await keyAuthority(deps, clientId).rememberBookmark(bookmark, deps.environment ?? "live");
}
