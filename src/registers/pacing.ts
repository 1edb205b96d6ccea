import { parseRetryAfter } from "./http";

/**
 * Pacing the registers from the queue consumer: at most `IN_FLIGHT_PER_REGISTER`
 * lookups of one register at a time, a budget of calls per window for each
 * register that publishes one, and no call at all before a register's own
 * reset once it has said "wait" (a 429, or `X-Ratelimit-Remain: 0`).
 *
 * The rules are here, pure (`spend`, `waitOf`, `askedToWaitUntil`); the state
 * lives in a Durable Object per register and deployment key
 * (src/durable-objects/register-pacer.ts, reached through
 * src/services/registers/pacer.ts), so every consumer invocation, in any isolate
 * and however many run at once, spends the same allowance: the REGISTER_LOOKUPS
 * consumer runs with `max_concurrency` > 1. A register's own reset is also kept
 * on the lookup's row (`due_at`), so a message delivered early is put back, not
 * asked.
 */

/** N: lookups of one register in flight at once (a Companies House lookup is itself 3 to 8 + 2 per director calls). */
export const IN_FLIGHT_PER_REGISTER = 2;

/**
 * Calls per window, per key. Companies House allows 600 per 5 minutes per key;
 * we spend at most 540 (10 % left for the retries in flight and anyone else on
 * the key). recherche-entreprises asks for at most 7 a second. The others
 * publish no figure; their own 429s and throttle codes pace them.
 */
export const CALL_BUDGETS: Readonly<Record<string, CallBudget>> = {
  companies_house: { calls: 540, windowSeconds: 300 },
  recherche_entreprises: { calls: 7, windowSeconds: 1 },
};

export interface CallBudget {
  calls: number;
  windowSeconds: number;
}

/** How long to wait after a 429 that names no reset. */
export const DEFAULT_WAIT_SECONDS = 60;

/** One register's allowance: the current budget window and the register's own "wait until". */
export interface Allowance {
  windowStart: number;
  used: number;
  /** Epoch ms before which nothing is sent. */
  blockedUntil: number;
}

export const FRESH_ALLOWANCE: Allowance = { windowStart: 0, used: 0, blockedUntil: 0 };

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Seconds until a call may go (the register's reset, or the end of a spent window); null when one may go now. */
export function waitOf(a: Allowance, budget: CallBudget | undefined, now: number): number | null {
  if (a.blockedUntil > now) return seconds(a.blockedUntil - now);
  if (!budget) return null;
  const windowMs = budget.windowSeconds * 1000;
  if (now - a.windowStart >= windowMs) return null;
  return a.used >= budget.calls ? seconds(a.windowStart + windowMs - now) : null;
}

/** Counts one call when one may go: the allowance after, and the wait (null: the call was counted and may go). */
export function spend(a: Allowance, budget: CallBudget | undefined, now: number): { allowance: Allowance; wait: number | null } {
  const wait = waitOf(a, budget, now);
  if (wait !== null || !budget) return { allowance: a, wait };
  const fresh = now - a.windowStart >= budget.windowSeconds * 1000;
  return { allowance: { ...a, windowStart: fresh ? now : a.windowStart, used: (fresh ? 0 : a.used) + 1 }, wait: null };
}

/** The moment (epoch ms) the source asks us to wait for: Retry-After when sent, else X-Ratelimit-Reset (epoch seconds). */
function askedUntil(headers: Headers, now: Date): number | null {
  const retryAfter = parseRetryAfter(headers.get("Retry-After"), now);
  if (retryAfter !== null) return now.getTime() + retryAfter * 1000;
  const reset = headers.get("X-Ratelimit-Reset")?.trim();
  return reset && /^\d+$/.test(reset) ? Number(reset) * 1000 : null;
}

/**
 * What an answer says about the allowance: the moment (epoch ms) before which the register must not be
 * called again, or null when it says nothing (most answers). A 429 without a reset waits DEFAULT_WAIT_SECONDS.
 */
export function askedToWaitUntil(status: number, headers: Headers, now: Date): number | null {
  const until = askedUntil(headers, now);
  if (status === 429) return until ?? now.getTime() + DEFAULT_WAIT_SECONDS * 1000;
  const remain = headers.get("X-Ratelimit-Remain");
  return remain !== null && /^\d+$/.test(remain.trim()) && Number(remain) <= 0 && until !== null ? until : null;
}
