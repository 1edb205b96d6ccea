/**
 * Sign-in attempts counted per client address and per account, in the same
 * key-authority Durable Object (KeyAuthority) the API's per-address limit uses (one instance
 * per bucket). A limiter that cannot be reached refuses: sign-in fails closed.
 */
import {
  accountBucket,
  addressBucket,
  challengeBucket,
  SIGN_IN_ATTEMPTS_PER_ACCOUNT,
  SIGN_IN_ATTEMPTS_PER_ADDRESS,
  SIGN_IN_CHALLENGES_PER_ADDRESS,
  SIGN_IN_WINDOW_SECONDS,
} from "../../domain/portal/sign-in-limits";
import { countInBucket, type LimiterEnv } from "../identity/bucket-limit";

const count = (env: LimiterEnv, bucket: string, limit: number) =>
  countInBucket(env, bucket, {
    limit,
    windowSeconds: SIGN_IN_WINDOW_SECONDS,
    unavailable: "Sign-in attempts cannot be counted just now; try again in a few seconds.",
    limited: (resetSeconds) => `Too many sign-in attempts; try again in ${Math.ceil(resetSeconds / 60)} minutes.`,
  });

/** One attempt from this address (`clientAddress`, lib/client-address.ts); throws 429 with Retry-After once the window is spent. */
export const countAttemptFromAddress = (env: LimiterEnv, address: string) => count(env, addressBucket(address), SIGN_IN_ATTEMPTS_PER_ADDRESS);

/** One attempt on this member's account. */
export const countAttemptOnAccount = (env: LimiterEnv, memberId: string) => count(env, accountBucket(memberId), SIGN_IN_ATTEMPTS_PER_ACCOUNT);

/** One sign-in challenge asked for from this address: bounds the rows an anonymous visitor can make. */
export const countChallengeFromAddress = (env: LimiterEnv, address: string) => count(env, challengeBucket(address), SIGN_IN_CHALLENGES_PER_ADDRESS);
