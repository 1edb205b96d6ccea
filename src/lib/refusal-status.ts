/**
 * The one table from refusal code to HTTP status and title. Only the doors
 * read it (api/, web/, middleware/ and the entry files; test/architecture.test.ts
 * holds the rule): services and the domain say what was refused, never how the
 * answer is sent. The status and title never vary for a given code.
 */
import { PAGE_REFUSAL_CODES, type ApiRefusalCode, type RefusalCode } from "./refusal";

export const REFUSAL_STATUS = {
  invalid_request: { status: 400, title: "Invalid request" },
  unsupported_grant_type: { status: 400, title: "Unsupported grant type" },
  unauthorized: { status: 401, title: "Unauthorized" },
  environment_mismatch: { status: 403, title: "Environment mismatch" },
  wrong_key_type: { status: 403, title: "Key type not accepted here" },
  origin_not_allowed: { status: 403, title: "Origin not allowed" },
  link_invalid: { status: 403, title: "Link invalid or expired" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  lead_submitted: { status: 409, title: "Lead already submitted" },
  duplicate_lead: { status: 409, title: "Duplicate lead" },
  lead_not_funded: { status: 409, title: "Lead not funded" },
  invalid_transition: { status: 409, title: "Transition not allowed" },
  offer_not_acceptable: { status: 409, title: "Offer cannot be accepted" },
  precondition_failed: { status: 412, title: "Precondition failed" },
  no_open_request: { status: 409, title: "No open document request" },
  agreement_signed: { status: 409, title: "Agreement already signed" },
  conflict: { status: 409, title: "Conflict" },
  idempotency_key_in_use: { status: 409, title: "Idempotency key in use" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  missing_fields: { status: 422, title: "Mandatory fields missing" },
  consent_required: { status: 422, title: "Consent required" },
  cap_exceeded: { status: 422, title: "Account limit reached" },
  too_many_open_requests: { status: 422, title: "Too many open document requests" },
  idempotency_key_reused: { status: 422, title: "Idempotency key reused" },
  amount_above_offer: { status: 422, title: "Amount above the offer" },
  unknown_code: { status: 422, title: "Code not in the reference list" },
  invalid_value: { status: 422, title: "Value cannot be used" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal error" },
  service_unavailable: { status: 503, title: "Service unavailable" },
  service_misconfigured: { status: 503, title: "Service misconfigured" },
  resolver_unavailable: { status: 503, title: "DNS resolver unavailable" },
} as const satisfies Record<RefusalCode, { status: number; title: string }>;

export type RefusalStatus = (typeof REFUSAL_STATUS)[RefusalCode]["status"];

/** The catalogue the APIs publish (OpenAPI enum, /docs error table): the page-only codes left out. */
export const API_CATALOGUE: Record<ApiRefusalCode, { status: number; title: string }> = Object.fromEntries(
  Object.entries(REFUSAL_STATUS).filter(([code]) => !(PAGE_REFUSAL_CODES as readonly string[]).includes(code)),
) as Record<ApiRefusalCode, { status: number; title: string }>;

