/**
 * The retry schedule for a register that did not answer (timeout, outage,
 * rate limit). Each failed attempt stores its `unavailable` answer at once, so
 * the lead shows why it has no facts, and asks again later; the first answer
 * that is not a transient failure ends the schedule.
 */

/** Delay before attempt n+1 after n failed attempts: 1 min, 5 min, 30 min, 2 h, 12 h; then the last answer stays. */
export const LOOKUP_RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 43_200] as const;

/** A queue message may wait at most 12 hours (the Queues limit for a retry delay). */
const MAX_QUEUE_DELAY_SECONDS = 43_200;

/**
 * Seconds until the next attempt after `attempts` attempts, or null when the
 * schedule is spent. A source's own Retry-After is honoured when it asks for
 * longer than the schedule.
 */
export function nextLookupDelay(attempts: number, retryAfterSeconds: number | null = null): number | null {
  const scheduled = LOOKUP_RETRY_DELAYS_SECONDS[attempts - 1];
  if (scheduled === undefined) return null;
  return Math.min(Math.max(scheduled, retryAfterSeconds ?? 0), MAX_QUEUE_DELAY_SECONDS);
}
