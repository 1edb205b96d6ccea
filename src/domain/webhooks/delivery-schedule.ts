/**
 * Outcome and retry rules of a delivery attempt (spec "Delivery outcome and
 * retry" and decisions "Webhooks"). Pure: the consumer feeds in what happened.
 */

/** The first delivery and five retries. */
export const MAX_ATTEMPTS = 6;
/** Delay before retry n (after attempt n): about 1 min, 5 min, 30 min, 2 h, 12 h. */
export const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 43200] as const;
/** Cloudflare Queues refuse longer delays, so a longer Retry-After is capped here. */
export const QUEUE_MAX_DELAY_SECONDS = 43200;
/** Consecutive exhausted deliveries after which the endpoint is deactivated. */
export const EXHAUSTED_DELIVERIES_BEFORE_DEACTIVATION = 20;
export const DELIVERY_TIMEOUT_MS = 5000;

export type AttemptResult =
  /** `body`: the start of the receiver's answer as the log keeps it (response-excerpt.ts); absent or null when none was read. */
  | { kind: "response"; status: number; retryAfter: string | null; body?: string | null }
  | { kind: "timeout"; afterMs: number }
  | { kind: "network_error"; message: string }
  | { kind: "refused"; reason: string };

export type AttemptOutcome =
  | { delivery: "succeeded" }
  /** 410 Gone: the receiver asked to be switched off. */
  | { delivery: "gone" }
  | { delivery: "retry"; delaySeconds: number }
  | { delivery: "exhausted" };

export const isSuccess = (result: AttemptResult) => result.kind === "response" && result.status >= 200 && result.status < 300;

/** Retry-After as delta-seconds or an HTTP date, in whole seconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * What follows attempt number `attempt` (1-based, automatic attempts only).
 * A Retry-After on 429 or 503 wins when it asks for longer than the schedule.
 */
export function decideOutcome(attempt: number, result: AttemptResult, now: Date): AttemptOutcome {
  if (isSuccess(result)) return { delivery: "succeeded" };
  if (result.kind === "response" && result.status === 410) return { delivery: "gone" };
  if (attempt >= MAX_ATTEMPTS) return { delivery: "exhausted" };
  let delay: number = RETRY_DELAYS_SECONDS[attempt - 1];
  if (result.kind === "response" && (result.status === 429 || result.status === 503)) {
    const asked = parseRetryAfter(result.retryAfter, now);
    if (asked !== null && asked > delay) delay = asked;
  }
  return { delivery: "retry", delaySeconds: Math.min(delay, QUEUE_MAX_DELAY_SECONDS) };
}

/** How an attempt is written down: status code (if any), a short error text and the start of the receiver's answer. */
export function describeResult(result: AttemptResult): { statusCode: number | null; error: string | null; responseBody: string | null } {
  switch (result.kind) {
    case "response":
      return { statusCode: result.status, error: isSuccess(result) ? null : `http_${result.status}`, responseBody: result.body ?? null };
    case "timeout":
      return { statusCode: null, error: `timeout: no response within ${result.afterMs / 1000} seconds`, responseBody: null };
    case "network_error":
      return { statusCode: null, error: `network_error: ${result.message}`.slice(0, 500), responseBody: null };
    case "refused":
      return { statusCode: null, error: `address_refused: ${result.reason}`.slice(0, 500), responseBody: null };
  }
}
