/**
 * Sign-in attempts counted per client address and per account, in the same
 * key-authority Durable Object (KeyAuthority) the API's per-address limit uses (one instance
 * per bucket). A limiter that cannot be reached refuses: sign-in fails closed.
 */
import type { RateLimitVerdict } from "../../durable-objects/key-authority";
import {
  accountBucket,
  addressBucket,
  challengeBucket,
  SIGN_IN_ATTEMPTS_PER_ACCOUNT,
  SIGN_IN_ATTEMPTS_PER_ADDRESS,
  SIGN_IN_CHALLENGES_PER_ADDRESS,
  SIGN_IN_WINDOW_SECONDS,
} from "../../domain/portal/sign-in-limits";
import type { Bindings } from "../../lib/env";
import { Refusal } from "../../lib/refusal";

type LimiterEnv = Pick<Bindings, "KEY_AUTHORITY">;

const UNAVAILABLE_RETRY_SECONDS = 5;

async function count(env: LimiterEnv, bucket: string, limit: number) {
  let verdict: RateLimitVerdict;
  try {
    verdict = await env.KEY_AUTHORITY.get(env.KEY_AUTHORITY.idFromName(bucket)).hit(limit, SIGN_IN_WINDOW_SECONDS);
  } catch {
    throw new Refusal("service_unavailable", "Sign-in attempts cannot be counted just now; try again in a few seconds.", {
      retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS,
    });
  }
  if (!verdict.allowed) {
    throw new Refusal("rate_limited", `Too many sign-in attempts; try again in ${Math.ceil(verdict.resetSeconds / 60)} minutes.`, {
      retryAfterSeconds: verdict.resetSeconds,
    });
  }
}

/** One attempt from this address (`clientAddress`, lib/client-address.ts); throws 429 with Retry-After once the window is spent. */
export const countAttemptFromAddress = (env: LimiterEnv, address: string) => count(env, addressBucket(address), SIGN_IN_ATTEMPTS_PER_ADDRESS);

/** One attempt on this member's account. */
export const countAttemptOnAccount = (env: LimiterEnv, memberId: string) => count(env, accountBucket(memberId), SIGN_IN_ATTEMPTS_PER_ACCOUNT);

/** One sign-in challenge asked for from this address: bounds the rows an anonymous visitor can make. */
export const countChallengeFromAddress = (env: LimiterEnv, address: string) => count(env, challengeBucket(address), SIGN_IN_CHALLENGES_PER_ADDRESS);
