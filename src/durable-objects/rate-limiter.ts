import { DurableObject } from "cloudflare:workers";

export interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

interface Window {
  startedAt: number;
  count: number;
}

/**
 * One instance per key (named by the key's client id, or `token:<client id>`
 * for the token endpoint): a fixed one-minute window. One instance serialises
 * its own requests, so the count needs no locking; the window is persisted so
 * an evicted instance does not hand out a fresh allowance.
 */
export class RateLimiter extends DurableObject {
  private window: Window | undefined;

  async hit(limit: number, windowSeconds: number, now = Date.now()): Promise<RateLimitVerdict> {
    this.window ??= (await this.ctx.storage.get<Window>("window")) ?? { startedAt: now, count: 0 };
    const windowMs = windowSeconds * 1000;
    if (now - this.window.startedAt >= windowMs) this.window = { startedAt: now, count: 0 };
    const allowed = this.window.count < limit;
    if (allowed) this.window.count += 1;
    void this.ctx.storage.put("window", this.window);
    const resetSeconds = Math.max(1, Math.ceil((this.window.startedAt + windowMs - now) / 1000));
    return { allowed, limit, remaining: Math.max(0, limit - this.window.count), resetSeconds };
  }
}
