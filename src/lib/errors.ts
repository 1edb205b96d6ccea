import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
/** errors need only the request id from the context; lib knows nothing of the app's other variables. */
type RequestEnv = { Variables: { requestId: string } };
import { logError } from "./logger";

/**
 * The error catalogue: every `error.code` the service answers with, its HTTP
 * status and a short title. Integrators branch on the code; the status and
 * title never vary for a given code.
 */
export const ERROR_CODES = {
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
  lead_not_funded: { status: 409, title: "Lead not funded" },
  invalid_transition: { status: 409, title: "Transition not allowed" },
  offer_not_acceptable: { status: 409, title: "Offer cannot be accepted" },
  no_open_request: { status: 409, title: "No open document request" },
  agreement_signed: { status: 409, title: "Agreement already signed" },
  conflict: { status: 409, title: "Conflict" },
  idempotency_key_in_use: { status: 409, title: "Idempotency key in use" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  missing_fields: { status: 422, title: "Mandatory fields missing" },
  cap_exceeded: { status: 422, title: "Account limit reached" },
  too_many_open_requests: { status: 422, title: "Too many open document requests" },
  idempotency_key_reused: { status: 422, title: "Idempotency key reused" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal error" },
  service_unavailable: { status: 503, title: "Service unavailable" },
  service_misconfigured: { status: 503, title: "Service misconfigured" },
  resolver_unavailable: { status: 503, title: "DNS resolver unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ApiErrorOptions {
  /** Dotted path of the offending field (`business.name`, `query.limit`). */
  field?: string;
  /** Extra top-level members of the problem body (`missing`, `errors`). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The one error type the service throws; `onError` turns it into problem+json. */
export class ApiError extends HTTPException {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(ERROR_CODES[code].status as ContentfulStatusCode, { message: detail });
  }
}

export function problemBody<E extends RequestEnv>(c: Context<E>, code: ErrorCode, detail: string, options: ApiErrorOptions = {}) {
  const { status, title } = ERROR_CODES[code];
  const error: Record<string, unknown> = { code, message: detail };
  if (options.field) error.field = options.field;
  return {
    type: new URL(`/docs#error-${code}`, c.req.url).toString(),
    title,
    status,
    detail,
    message: detail,
    error,
    ...options.extra,
    request_id: c.get("requestId"),
  };
}

export function problemResponse<E extends RequestEnv>(c: Context<E>, code: ErrorCode, detail: string, options: ApiErrorOptions = {}) {
  const body = problemBody(c, code, detail, options);
  for (const [name, value] of Object.entries(options.headers ?? {})) c.header(name, value);
  c.header("Content-Type", "application/problem+json");
  c.header("Cache-Control", "no-store");
  return c.body(JSON.stringify(body), body.status as ContentfulStatusCode);
}

/** Hono's own exceptions, mapped onto the catalogue. */
function fromHttpException(err: HTTPException): ApiError {
  switch (err.status) {
    case 400:
      return new ApiError("invalid_request", /json/i.test(err.message) ? "The request body is not valid JSON." : err.message || "The request could not be read.");
    case 401:
      return new ApiError("unauthorized", "Authentication required.");
    case 404:
      return new ApiError("not_found", "Not found.");
    case 413:
      return new ApiError("payload_too_large", "The request body is too large.");
    case 415:
      return new ApiError("unsupported_media_type", "Send the body as application/json.");
    default:
      return new ApiError("internal_error", "Something went wrong on our side; it is safe to retry with backoff.");
  }
}

export function onError<E extends RequestEnv>(err: Error, c: Context<E>) {
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (err instanceof HTTPException) apiError = fromHttpException(err);
  else {
    // Unknown failures are logged with the request id and never echoed: no stack, no message.
    logError("unhandled_error", err, { request_id: c.get("requestId") });
    apiError = new ApiError("internal_error", "Something went wrong on our side; it is safe to retry with backoff.");
  }
  return problemResponse(c, apiError.code, apiError.detail, apiError.options);
}
