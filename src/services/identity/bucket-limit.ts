/**
 * One hit on a named bucket of the key-authority Durable Object (one instance per bucket), for the
 * limits that are not a key's own (sign-in attempts, hub requests). It fails closed: a limiter that
 * cannot be reached refuses (`service_unavailable`, with Retry-After) rather than letting the request through uncounted.
 */
import type { RateLimitVerdict } from "../../durable-objects/key-authority";
import { Refusal } from "../../lib/refusal";
import type { Deps } from "../deps";

const UNAVAILABLE_RETRY_SECONDS = 5;

export interface BucketLimit {
  limit: number;
  windowSeconds: number;
  /** The `service_unavailable` refusal's detail when the limiter cannot be reached. */
  unavailable: string;
  /** The `rate_limited` refusal's detail, given the seconds until the window opens again. */
  limited: (resetSeconds: number) => string;
}

export async function countInBucket({ env }: Deps, bucket: string, rule: BucketLimit) {
  let verdict: RateLimitVerdict;
  try {
    verdict = await env.KEY_AUTHORITY.get(env.KEY_AUTHORITY.idFromName(bucket)).hit(rule.limit, rule.windowSeconds);
  } catch {
    throw new Refusal("service_unavailable", rule.unavailable, { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS });
  }
  if (!verdict.allowed) throw new Refusal("rate_limited", rule.limited(verdict.resetSeconds), { retryAfterSeconds: verdict.resetSeconds });
}
