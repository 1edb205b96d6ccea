import { describe, expect, it } from "vitest";
import { decideOutcome, parseRetryAfter, RETRY_DELAYS_SECONDS } from "../../../src/domain/webhooks/delivery-schedule";

const now = new Date("2026-11-22T10:00:00Z");
const status = (s: number, retryAfter: string | null = null) => ({ kind: "response" as const, status: s, retryAfter });

describe("delivery outcome and retry schedule", () => {
  it("retries after 1 min, 5 min, 30 min, 2 h and 12 h, then is exhausted after 6 attempts", () => {
    const delays = [1, 2, 3, 4, 5].map((attempt) => decideOutcome(attempt, status(500), now));
    expect(delays).toEqual(RETRY_DELAYS_SECONDS.map((d) => ({ delivery: "retry", delaySeconds: d })));
    expect(RETRY_DELAYS_SECONDS).toEqual([60, 300, 1800, 7200, 43200]);
    expect(decideOutcome(6, status(500), now)).toEqual({ delivery: "exhausted" });
  });

  it("treats 2xx as success, 410 as gone, and timeouts, network errors and refusals as failures", () => {
    expect(decideOutcome(1, status(204), now)).toEqual({ delivery: "succeeded" });
    expect(decideOutcome(6, status(200), now)).toEqual({ delivery: "succeeded" });
    expect(decideOutcome(1, status(410), now)).toEqual({ delivery: "gone" });
    expect(decideOutcome(1, status(301), now)).toEqual({ delivery: "retry", delaySeconds: 60 });
    expect(decideOutcome(2, { kind: "timeout", afterMs: 5000 }, now)).toEqual({ delivery: "retry", delaySeconds: 300 });
    expect(decideOutcome(3, { kind: "network_error", message: "refused" }, now)).toEqual({ delivery: "retry", delaySeconds: 1800 });
    expect(decideOutcome(1, { kind: "refused", reason: "private" }, now)).toEqual({ delivery: "retry", delaySeconds: 60 });
  });

  it("honours a longer Retry-After on 429 and 503 only, capped at the queue's 12 hours", () => {
    expect(decideOutcome(1, status(429, "600"), now)).toEqual({ delivery: "retry", delaySeconds: 600 });
    expect(decideOutcome(1, status(503, "10"), now)).toEqual({ delivery: "retry", delaySeconds: 60 });
    expect(decideOutcome(1, status(500, "600"), now)).toEqual({ delivery: "retry", delaySeconds: 60 });
    expect(decideOutcome(5, status(503, "999999"), now)).toEqual({ delivery: "retry", delaySeconds: 43200 });
    expect(decideOutcome(1, status(503, "Sun, 22 Nov 2026 11:00:00 GMT"), now)).toEqual({ delivery: "retry", delaySeconds: 3600 });
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:02:00 GMT", now)).toBe(120);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
