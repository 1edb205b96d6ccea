import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError, ERROR_CODES } from "../../../lib/errors";

/** A service's refusal as a page shows it: the status to answer with and the message beside its field. */
export interface Refusal {
  status: ContentfulStatusCode;
  error: { field: string | null; message: string };
}

/**
 * The API's ApiError, read for a form: `events.0` or `allowed_origins.2` is
 * shown beside the form field it came from (`events`, `allowed_origins`).
 * Anything else is not a refusal and is thrown on to the portal's onError.
 */
export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof ApiError)) throw error;
  const field = error.options.field?.split(".")[0] ?? null;
  return { status: ERROR_CODES[error.code].status as ContentfulStatusCode, error: { field, message: error.detail } };
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.code === "not_found";
