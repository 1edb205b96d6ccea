import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "@hono/zod-openapi";
import { ApiError, ERROR_CODES } from "../../../lib/errors";
import { fieldKey, messagesOf } from "../../kit/messages";

/** A service's refusal as a page shows it: the status to answer with and the message beside its field. */
export interface Refusal {
  status: ContentfulStatusCode;
  error: { field: string | null; message: string };
}

/**
 * A refused form, read for the page: the form's own schema refusal (a ZodError, 400)
 * or a service's ApiError, in the person's words from the one messages map.
 * `events.0` or `allowed_origins.2` is shown beside the form field it came from
 * (`events`, `allowed_origins`). Anything else is not a refusal and is thrown on
 * to the portal's onError.
 */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof z.ZodError) {
    const [first] = messagesOf(error);
    return { status: 400, error: { field: fieldKey(first?.field), message: first?.message ?? "Check the form and send it again." } };
  }
  if (!(error instanceof ApiError)) throw error;
  const [first] = messagesOf({ code: error.code, detail: error.detail, field: error.options.field });
  return { status: ERROR_CODES[error.code].status as ContentfulStatusCode, error: { field: fieldKey(error.options.field), message: first.message } };
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.code === "not_found";
