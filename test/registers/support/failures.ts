import { expect, it } from "vitest";
import type { RegisterOutcome, VatOutcome } from "../../../src/registers/outcome";
import type { RegisterEnv } from "../../../src/registers/config";
import { HANG_TIMEOUT_MS, registerContext, type Scenario } from "./context";

/**
 * The failures every source is tested against, and what each must turn into:
 * the reason, whether the caller should ask again, and the Retry-After kept.
 */
export const FAILURES: { scenario: Scenario; reason: string; retryable: boolean; retryAfterSeconds: number | null; logged: string }[] = [
  { scenario: "unauthorized", reason: "unavailable", retryable: false, retryAfterSeconds: null, logged: "http_401" },
  { scenario: "forbidden", reason: "unavailable", retryable: false, retryAfterSeconds: null, logged: "http_403" },
  { scenario: "rate-limited", reason: "rate_limited", retryable: true, retryAfterSeconds: 120, logged: "http_429" },
  { scenario: "server-error", reason: "unavailable", retryable: true, retryAfterSeconds: null, logged: "http_503" },
  { scenario: "redirect", reason: "unavailable", retryable: false, retryAfterSeconds: null, logged: "http_302" },
  { scenario: "malformed", reason: "unavailable", retryable: false, retryAfterSeconds: null, logged: "malformed_body" },
  { scenario: "wrong-shape", reason: "unavailable", retryable: false, retryAfterSeconds: null, logged: "unexpected_shape" },
  { scenario: "hang", reason: "timeout", retryable: true, retryAfterSeconds: null, logged: "timeout" },
];

/** Runs the failure table against one register lookup. */
export function registerFailureCases(lookup: (ctx: ReturnType<typeof registerContext>["ctx"]) => Promise<RegisterOutcome>) {
  for (const failure of FAILURES) {
    it(`answers ${failure.reason} when the register answers ${failure.scenario}`, async () => {
      const { ctx, logs } = registerContext(failure.scenario, failure.scenario === "hang" ? { timeoutMs: HANG_TIMEOUT_MS } : {});
      const outcome = await lookup(ctx);
      expect(outcome).toEqual({
        answer: { source: "official_register", status: "unavailable", reason: failure.reason },
        retryable: failure.retryable,
        retryAfterSeconds: failure.retryAfterSeconds,
      });
      expect(logs.map((l) => l.outcome)).toContain(failure.logged);
      // Logs carry the source and the operation, never a URL, a key or the number asked.
      expect(JSON.stringify(logs)).not.toMatch(/http:|test-ch-key|test-hmrc|test-guid|Basic |Bearer /);
    });
  }
}

/** Runs the failure table against one VAT check: validity unknown, with the register's reason (a 429 is rate_limited, as decisions.md names it). */
export function vatFailureCases(
  check: (ctx: ReturnType<typeof registerContext>["ctx"]) => Promise<VatOutcome>,
  number: string,
  env: Partial<RegisterEnv> = {},
) {
  for (const failure of FAILURES) {
    const reason = failure.reason;
    it(`answers valid null (${reason}) when the VAT register answers ${failure.scenario}`, async () => {
      const { ctx, logs } = registerContext(failure.scenario, { env, ...(failure.scenario === "hang" ? { timeoutMs: HANG_TIMEOUT_MS } : {}) });
      const outcome = await check(ctx);
      expect(outcome).toEqual({
        answer: { number, valid: null, checked_at: null, source: "vat_validation", registered_name: null, registered_address: null, reason },
        retryable: failure.retryable,
        retryAfterSeconds: failure.retryAfterSeconds,
      });
      expect(logs.map((l) => l.outcome)).toContain(failure.logged);
      expect(JSON.stringify(logs)).not.toMatch(/http:|test-ch-key|test-hmrc|hmrc-issued|test-guid|Basic |Bearer /);
    });
  }
}
