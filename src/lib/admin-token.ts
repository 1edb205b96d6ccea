/**
 * The rule a deployed environment's ADMIN_TOKEN must meet: at least 32 random bytes, written the way
 * the usual generators write them (`openssl rand -hex 32`, `openssl rand -base64 32`, base64url).
 * Randomness cannot be measured from one value, so the rule reads what the characters can hold (4 bits
 * a character in hex, 6 in base64 or base64url) and refuses the patterns no generator gives: a token
 * that is one short block repeated, or uses fewer than 10 distinct characters. A token with any other
 * character (a passphrase, a word with punctuation, whitespace) is not an encoding of random bytes.
 *
 * Where it applies: wherever the public local-only signing fallback does not (`localFallbackAllowed`),
 * so `npm run dev` and the test suites keep their short fixed tokens. A deployment without ADMIN_TOKEN
 * has no operator API (`not_found`) and needs none. A deployed environment whose token breaks the rule
 * refuses every request but /health (src/middleware/configuration.ts), like a missing SIGNING_SECRET.
 */
import type { Bindings } from "./env";
import { localFallbackAllowed } from "./signing-secret";

const ADMIN_TOKEN_MIN_BYTES = 32;
/** Far below what 43 random base64url or 64 random hex characters show (about 31 and 16). */
const MIN_DISTINCT_CHARACTERS = 10;

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+$/;

/** The most random bytes `token` can carry as written: 0 when it is no hex or base64(url) text. */
function bytesHeld(token: string): number {
  if (HEX.test(token)) return Math.floor(token.length / 2);
  if (BASE64.test(token)) return Math.floor((token.replace(/=+$/, "").length * 6) / 8);
  return 0;
}

/** Whether the token is one shorter block written over and over (`abab…`, `0123…f0123…f`). */
const repeatsABlock = (token: string) => (token + token).indexOf(token, 1) < token.length;

/** Whether `token` could be 32 random bytes as written. */
function isStrongAdminToken(token: string): boolean {
  return bytesHeld(token) >= ADMIN_TOKEN_MIN_BYTES && new Set(token).size >= MIN_DISTINCT_CHARACTERS && !repeatsABlock(token);
}

type AdminTokenEnv = Pick<Bindings, "ADMIN_TOKEN" | "DEPLOYMENT"> & { PUBLIC_URL?: string };

/** `["ADMIN_TOKEN"]` when this deployment holds a token under the rule, else empty. */
export function weakSecrets(env: AdminTokenEnv, hostname?: string): string[] {
  if (!env.ADMIN_TOKEN || localFallbackAllowed(env, hostname)) return [];
  return isStrongAdminToken(env.ADMIN_TOKEN) ? [] : ["ADMIN_TOKEN"];
}
