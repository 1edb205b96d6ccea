import type { z } from "zod";
import type { RegistryAvailable, RegistryDirector } from "../domain/registers/types";
import type { SourceContext } from "./context";
import type { HttpFailure, HttpResult } from "./http";
import { REGISTRY_SOURCE, unavailable, type RegisterOutcome } from "./outcome";

/**
 * Builders shared by the register adapters: a complete available answer
 * (every key present, null where the source holds nothing) and the turn
 * from a failed call or an unexpected body into an unavailable answer.
 */

type Facts = Omit<RegistryAvailable, "source" | "status" | "checked_at">;

const NO_FACTS: Facts = {
  registered_name: null,
  incorporated_on: null,
  company_age_months: null,
  company_status: null,
  company_type: null,
  sic_codes: null,
  activity_codes: null,
  registered_office: null,
  directors: null,
  officers: null,
  psc_count: null,
  accounts: null,
  confirmation_statement: null,
  charges_count: null,
  has_insolvency_history: null,
  filed_financials: null,
  filings: null,
  share_capital: null,
  registers: null,
  exemptions: null,
  uk_establishments_count: null,
  disqualified_directors_count: null,
  identifiers: null,
  business_description: null,
  sections: null,
};

export function available(facts: Partial<Facts>, ctx: SourceContext): RegisterOutcome {
  const answer: RegistryAvailable = {
    source: REGISTRY_SOURCE,
    status: "available",
    ...NO_FACTS,
    ...facts,
    checked_at: ctx.now().toISOString(),
  };
  return { answer, retryable: false, retryAfterSeconds: null };
}

export const fromFailure = (failure: HttpFailure): RegisterOutcome =>
  unavailable(failure.reason, { retryable: failure.retryable, retryAfterSeconds: failure.retryAfterSeconds });

/** Whole calendar months from `isoDate` (YYYY-MM-DD) to `now`; null for a date that does not parse or lies ahead. */
export function monthsSince(isoDate: string | null, now: Date): number | null {
  if (!isoDate) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  let months = (now.getUTCFullYear() - year) * 12 + (now.getUTCMonth() + 1 - month);
  if (now.getUTCDate() < day) months -= 1;
  return months >= 0 ? months : null;
}

/**
 * Checks a successful call's body against the source's documented shape.
 * A body that does not fit is treated like a source that did not answer.
 */
export function parseBody<T extends z.ZodType>(
  result: HttpResult,
  schema: T,
  ctx: SourceContext,
  where: { source: string; operation: string },
): { ok: true; value: z.infer<T> } | { ok: false; failure: HttpFailure } {
  if (!result.ok) return result;
  const parsed = schema.safeParse(result.body);
  if (parsed.success) return { ok: true, value: parsed.data };
  ctx.log({ ...where, outcome: "unexpected_shape", status: result.status });
  return { ok: false, failure: { reason: "unavailable", status: result.status, retryable: false, retryAfterSeconds: null } };
}

/**
 * The registers' "not disclosed" placeholders: VIES's `---`, and
 * recherche-entreprises' `[NON-DIFFUSIBLE]` (a company or person who opted out
 * of publication), which can stand alone or inside a longer value.
 */
const UNDISCLOSED = /\[\s*NON[\s-]DIFFUSIBLE\s*\]/i;

/** A trimmed string, or null for empty, absent and the registers' "not disclosed" placeholders. */
export function text(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === "" || trimmed === "---" || UNDISCLOSED.test(trimmed) ? null : trimmed;
}

/**
 * A director as a register that lists only names and roles gives it: what it
 * does not publish (dates, other appointments, disqualification) is null,
 * never a guess.
 */
export const directorByNameOnly = (name: string | null, role: string | null): RegistryDirector => ({
  name,
  role,
  appointed_on: null,
  resigned_on: null,
  other_active_appointments: null,
  other_resigned_appointments: null,
  dissolved_companies: null,
  disqualified: null,
});
