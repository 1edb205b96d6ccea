import { parseRetryAfter } from "./http";
import type { SourcePacer } from "./context";

/**
 * Pacing the registers from the queue consumer: at most `IN_FLIGHT_PER_REGISTER`
 * lookups of one register at a time, a budget of calls per window for each
 * register that publishes one, and no call at all before a register's own
 * reset once it has said "wait" (a 429, or `X-Ratelimit-Remain: 0`).
 *
 * State lives in the consumer's isolate, one pacer per deployment key (the
 * registers' base URLs and the Companies House key): the REGISTER_LOOKUPS
 * consumer runs with `max_concurrency = 1`, so every lookup of a deployment
 * goes through the same pacer while the isolate lives. A new isolate starts
 * with a full budget, but a register's own reset is also kept on the lookup's
 * row (`due_at`), so a message delivered early is put back, not asked.
 */

/** N: lookups of one register in flight at once (a Companies House lookup is itself 3 to 8 + 2 per director calls). */
export const IN_FLIGHT_PER_REGISTER = 2;

/**
 * Calls per window, per key. Companies House allows 600 per 5 minutes per key;
 * we spend at most 540 (10 % left for the retries in flight and anyone else on
 * the key). recherche-entreprises asks for at most 7 a second. The others
 * publish no figure; their own 429s and throttle codes pace them.
 */
export const CALL_BUDGETS: Readonly<Record<string, { calls: number; windowSeconds: number }>> = {
  companies_house: { calls: 540, windowSeconds: 300 },
  recherche_entreprises: { calls: 7, windowSeconds: 1 },
};

/** How long to wait after a 429 that names no reset. */
export const DEFAULT_WAIT_SECONDS = 60;

interface Allowance {
  windowStart: number;
  used: number;
  /** Epoch ms before which nothing is sent. */
  blockedUntil: number;
  running: number;
  waiting: (() => void)[];
}

/** The moment (epoch ms) the source asks us to wait for: Retry-After when sent, else X-Ratelimit-Reset (epoch seconds). */
function askedUntil(headers: Headers, now: Date): number | null {
  const retryAfter = parseRetryAfter(headers.get("Retry-After"), now);
  if (retryAfter !== null) return now.getTime() + retryAfter * 1000;
  const reset = headers.get("X-Ratelimit-Reset")?.trim();
  return reset && /^\d+$/.test(reset) ? Number(reset) * 1000 : null;
}

export function createPacer(): SourcePacer {
  const state = new Map<string, Allowance>();
  const of = (source: string): Allowance => {
    let a = state.get(source);
    if (!a) state.set(source, (a = { windowStart: 0, used: 0, blockedUntil: 0, running: 0, waiting: [] }));
    return a;
  };
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  function blockedFor(source: string, now: Date): number | null {
    const a = of(source);
    const t = now.getTime();
    if (a.blockedUntil > t) return seconds(a.blockedUntil - t);
    const budget = CALL_BUDGETS[source];
    if (!budget) return null;
    const windowMs = budget.windowSeconds * 1000;
    if (t - a.windowStart >= windowMs) return null;
    return a.used >= budget.calls ? seconds(a.windowStart + windowMs - t) : null;
  }

  return {
    blockedFor,
    take(source, now) {
      const wait = blockedFor(source, now);
      if (wait !== null) return wait;
      const budget = CALL_BUDGETS[source];
      if (budget) {
        const a = of(source);
        if (now.getTime() - a.windowStart >= budget.windowSeconds * 1000) {
          a.windowStart = now.getTime();
          a.used = 0;
        }
        a.used += 1;
      }
      return null;
    },
    observe(source, status, headers, now) {
      const a = of(source);
      const until = askedUntil(headers, now);
      const remain = headers.get("X-Ratelimit-Remain");
      if (status === 429) a.blockedUntil = Math.max(a.blockedUntil, until ?? now.getTime() + DEFAULT_WAIT_SECONDS * 1000);
      else if (remain !== null && /^\d+$/.test(remain.trim()) && Number(remain) <= 0 && until !== null) a.blockedUntil = Math.max(a.blockedUntil, until);
    },
    async inFlight(source, work) {
      const a = of(source);
      while (a.running >= IN_FLIGHT_PER_REGISTER) await new Promise<void>((resolve) => a.waiting.push(resolve));
      a.running += 1;
      try {
        return await work();
      } finally {
        a.running -= 1;
        a.waiting.shift()?.();
      }
    },
  };
}

const pacers = new Map<string, SourcePacer>();

/** The consumer's pacer for one deployment key (same registers, same key: same allowance). */
export function pacerFor(key: string): SourcePacer {
  let pacer = pacers.get(key);
  if (!pacer) pacers.set(key, (pacer = createPacer()));
  return pacer;
}
