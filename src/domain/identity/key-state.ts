/**
 * What the key's Durable Object holds about its key (see
 * src/durable-objects/key-authority.ts): the facts every request needs, the
 * hash a presented key must match and the live bearer tokens minted from it.
 * Hashes only: neither the key nor a token is ever held in clear.
 */
import { timingSafeEqual } from "../../lib/crypto";
import type { Environment, KeyKind } from "./keys";

/** What the caller learns about an admitted key: never its hash. */
export interface KeyFacts {
  keyId: string;
  clientId: string;
  organisationId: string;
  organisationKind: "partner" | "lender";
  environment: Environment;
  kind: KeyKind;
  allowedOrigins: string[];
}

export interface KeyState {
  facts: KeyFacts;
  keyHash: string;
  revoked: boolean;
  /** SHA-256 hex of each live bearer token → its expiry in epoch seconds. */
  tokens: Map<string, number>;
}

/**
 * Whether a request from `origin` is one this key refuses: a publishable key used from a page not on
 * its list. Decided before the request is counted, so a foreign page cannot spend the key's quota.
 */
export function refusesOrigin(facts: KeyFacts, origin: string | undefined): boolean {
  return origin !== undefined && facts.kind === "publishable" && !facts.allowedOrigins.includes(origin);
}

/** A publishable key's share per client address when `PUBLISHABLE_SHARE_PER_ADDRESS` is unset or unreadable: a quarter of the spec's 120. */
const DEFAULT_ADDRESS_SHARE = 30;

/**
 * How many of a publishable key's `limit` requests a minute one client address may make: the
 * setting when it is a whole number from 1 up, never more than the key's own limit; otherwise the
 * default (itself capped by the limit). A visitor's page makes about 7 list requests and one per
 * answer, so the default leaves room for a visitor while a script from one address gets a quarter.
 */
export function addressShareOf(raw: string | undefined, limit: number): number {
  const parsed = Number(raw);
  const share = raw !== undefined && raw.trim() !== "" && Number.isInteger(parsed) && parsed > 0 ? parsed : DEFAULT_ADDRESS_SHARE;
  return Math.min(share, limit);
}

/** A presented credential, already hashed by the isolate. */
export type PresentedCredential = { keyHash: string } | { tokenHash: string };

/** Expired tokens are dropped once this many are held. */
const TOKENS_BEFORE_PRUNING = 256;

/**
 * Whether the credential opens this key now. A revoked key admits nothing,
 * its tokens included; the key hash is compared in constant time.
 */
export function admits(state: KeyState, credential: PresentedCredential, nowSeconds: number): boolean {
  if (state.revoked) return false;
  if ("keyHash" in credential) return timingSafeEqual(credential.keyHash, state.keyHash);
  const expiresAt = state.tokens.get(credential.tokenHash);
  return expiresAt !== undefined && expiresAt > nowSeconds;
}

export function rememberToken(state: KeyState, tokenHash: string, expiresAt: number, nowSeconds: number) {
  if (state.tokens.size >= TOKENS_BEFORE_PRUNING) {
    for (const [hash, expiry] of state.tokens) if (expiry <= nowSeconds) state.tokens.delete(hash);
  }
  state.tokens.set(tokenHash, expiresAt);
}
