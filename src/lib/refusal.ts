/**
 * The one refusal language. A service, a middleware or a door says why it
 * will not do something with a `Refusal`: a stable code, a developer-facing
 * detail and, where one input is at fault, its dotted field path. It knows
 * nothing of HTTP: each door reads the code's status and title from the one
 * table (lib/refusal-status.ts) and answers in its own way (api/problem.ts as
 * problem+json, web/kit/refusal.ts as a message beside a form field).
 */

/** The codes the JSON APIs answer with (the `error.code` of problem+json); integrators branch on them. */
export const API_REFUSAL_CODES = [
  "invalid_request",
  "unsupported_grant_type",
  "unauthorized",
  "environment_mismatch",
  "wrong_key_type",
  "origin_not_allowed",
  "link_invalid",
  "not_found",
  "method_not_allowed",
  "lead_submitted",
  "duplicate_lead",
  "lead_not_funded",
  "invalid_transition",
  "precondition_failed",
  "offer_not_acceptable",
  "no_open_request",
  "agreement_signed",
  "conflict",
  "idempotency_key_in_use",
  "payload_too_large",
  "unsupported_media_type",
  "missing_fields",
  "consent_required",
  "cap_exceeded",
  "too_many_open_requests",
  "idempotency_key_reused",
  "amount_above_offer",
  "unknown_code",
  "rate_limited",
  "internal_error",
  "service_unavailable",
  "service_misconfigured",
  "resolver_unavailable",
] as const;

/**
 * Codes only the HTML doors show: a value a person typed that is present but
 * cannot be used (`invalid_value`; a missing one is `invalid_request`). The APIs word the
 * same problem as `invalid_request`, so these never reach an API's catalogue.
 */
export const PAGE_REFUSAL_CODES = ["invalid_value"] as const;

export type ApiRefusalCode = (typeof API_REFUSAL_CODES)[number];
export type RefusalCode = ApiRefusalCode | (typeof PAGE_REFUSAL_CODES)[number];

export interface RefusalOptions {
  /** Dotted path of the offending field (`business.name`, `query.limit`). */
  field?: string;
  /** Extra top-level members of the problem body (`missing`, `errors`, `limit`). */
  extra?: Record<string, unknown>;
  /** When to try again, in whole seconds; the doors send it as `Retry-After`. */
  retryAfterSeconds?: number;
}

/** Why something was refused, in the domain's words; thrown (or returned) by services, read by the doors. */
export class Refusal extends Error {
  readonly field?: string;
  readonly extra?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: RefusalCode,
    readonly detail: string,
    options: RefusalOptions = {},
  ) {
    super(detail);
    this.name = "Refusal";
    this.field = options.field;
    this.extra = options.extra;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Is this a refusal, and (when codes are given) one of these? */
export const isRefusal = (error: unknown, ...codes: RefusalCode[]): error is Refusal =>
  error instanceof Refusal && (codes.length === 0 || codes.includes(error.code));
