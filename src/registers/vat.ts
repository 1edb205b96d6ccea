import type { VatAnswer } from "../domain/registers/types";
import type { SourceContext } from "./context";
import type { HttpFailure } from "./http";
import type { VatOutcome } from "./outcome";

/** Builders shared by the VAT adapters: the spec's `business.vat` object in its three forms. */

/**
 * "gb 123 4567 89", "GB123456789" and "123456789" all become { national: "123456789", number: "GB123456789" }.
 * The national part must fit the market's pattern; anything else is not a VAT number of that market.
 */
export function normaliseVatNumber(input: string, prefix: string, pattern: RegExp): { national: string; number: string } | null {
  const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, "");
  const national = compact.startsWith(prefix) ? compact.slice(prefix.length) : compact;
  return pattern.test(national) ? { national, number: `${prefix}${national}` } : null;
}

export function vatChecked(
  number: string,
  valid: boolean,
  details: { registered_name?: string | null; registered_address?: string | null },
  ctx: SourceContext,
): VatOutcome {
  const answer: VatAnswer = {
    number,
    valid,
    checked_at: ctx.now().toISOString(),
    source: "vat_validation",
    registered_name: details.registered_name ?? null,
    registered_address: details.registered_address ?? null,
    reason: null,
  };
  return { answer, retryable: false, retryAfterSeconds: null };
}

/** The VAT register did not answer, is not configured, or no number was given: validity unknown, the reason says why. */
export function vatUnanswered(
  number: string | null,
  reason: "unavailable" | "timeout" | "rate_limited" | "not_configured" | "no_number",
  hint: { retryable: boolean; retryAfterSeconds: number | null } = { retryable: false, retryAfterSeconds: null },
): VatOutcome {
  const answer: VatAnswer = {
    number,
    valid: null,
    checked_at: null,
    source: "vat_validation",
    registered_name: null,
    registered_address: null,
    reason,
  };
  return { answer, ...hint };
}

/**
 * A failed call other than "not found" (which VAT sources answer as `valid: false`).
 * A register that asks us to wait is `rate_limited` (decisions.md), its wait kept in the hint.
 */
export const vatFromFailure = (number: string, failure: HttpFailure): VatOutcome =>
  vatUnanswered(number, failure.reason === "timeout" || failure.reason === "rate_limited" ? failure.reason : "unavailable", {
    retryable: failure.retryable,
    retryAfterSeconds: failure.retryAfterSeconds,
  });
