import type { RegistryAnswer, RegistryUnavailable, RegistryUnavailableReason, VatAnswer } from "../domain/registers/types";

/**
 * What a lookup hands back: the answer to store, and whether asking again
 * later may give a better one. `retryAfterSeconds` carries the source's own
 * Retry-After when it sent one; the caller schedules the retry.
 */
export interface RetryHint {
  retryable: boolean;
  retryAfterSeconds: number | null;
}

export interface RegisterOutcome extends RetryHint {
  answer: RegistryAnswer;
}

export interface VatOutcome extends RetryHint {
  answer: VatAnswer;
}

/** The spec's `source` value for every register answer. */
export const REGISTRY_SOURCE = "official_register";

const noRetry: RetryHint = { retryable: false, retryAfterSeconds: null };

export function unavailable(reason: RegistryUnavailableReason, hint: RetryHint = noRetry): RegisterOutcome {
  const answer: RegistryUnavailable = { source: REGISTRY_SOURCE, status: "unavailable", reason };
  return { answer, ...hint };
}
