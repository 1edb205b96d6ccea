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
import type { Deps } from "../deps";
import { countInBucket } from "../identity/bucket-limit";

const count = (deps: Deps, bucket: string, limit: number) =>
  countInBucket(deps, bucket, {
    limit,
    windowSeconds: SIGN_IN_WINDOW_SECONDS,
    unavailable: "Sign-in attempts cannot be counted just now; try again in a few seconds.",
    limited: (resetSeconds) => `Too many sign-in attempts; try again in ${Math.ceil(resetSeconds / 60)} minutes.`,
  });

/** One attempt from this address (`clientAddress`, lib/client-address.ts); refuses `rate_limited` with Retry-After once the window is spent. */
export const countAttemptFromAddress = (deps: Deps, address: string) => count(deps, addressBucket(address), SIGN_IN_ATTEMPTS_PER_ADDRESS);

/** One attempt on this member's account. */
export const countAttemptOnAccount = (deps: Deps, memberId: string) => count(deps, accountBucket(memberId), SIGN_IN_ATTEMPTS_PER_ACCOUNT);

/** One sign-in challenge asked for from this address: bounds the rows an anonymous visitor can make. */
export const countChallengeFromAddress = (deps: Deps, address: string) => count(deps, challengeBucket(address), SIGN_IN_CHALLENGES_PER_ADDRESS);
