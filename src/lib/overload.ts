/**
 * Whether an error is the platform saying "too busy, try again": a Durable Object or D1 that is
 * overloaded (`overloaded: true` on the exception, or D1's "… is overloaded. Too many requests
 * queued."). Such a failure is refused `service_unavailable` with Retry-After, never an `internal_error`.
 */
export const OVERLOAD_RETRY_SECONDS = 2;

export function isOverload(error: unknown): boolean {
  // drizzle wraps a D1 failure ("Failed query: …") with the platform's error as its cause.
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as Error & { overloaded?: unknown }).overloaded === true) return true;
    if (/\boverloaded\b|too many requests queued/i.test(e.message)) return true;
  }
  return false;
}
