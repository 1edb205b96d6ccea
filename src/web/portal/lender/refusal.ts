/**
 * A refused form on the deal page: which form, which field (null when the
 * refusal is about the deal, not a field), the person's message and the HTTP
 * status the API would answer with. Built from the lender API's own schema
 * (its ZodError) or the service's ApiError, so the page and the API refuse alike.
 */
import { z } from "@hono/zod-openapi";
import { ApiError, ERROR_CODES } from "../../../lib/errors";
import { fieldKey, messagesOf } from "../../kit/messages";

export const DEAL_FORMS = ["offer", "status", "message", "request", "agreement", "waive"] as const;
export type DealForm = (typeof DEAL_FORMS)[number];

export interface DealRefusal {
  form: DealForm;
  field: string | null;
  message: string;
  status: 400 | 409 | 413 | 415 | 422;
  /** What was typed, put back in the form. */
  draft: Record<string, string>;
}

/** The refusal in the person's words (the one messages map); the field is the form input it names. */
export function refusalOf(form: DealForm, error: ApiError | z.ZodError, draft: Record<string, string>): DealRefusal {
  if (error instanceof z.ZodError) {
    const [first] = messagesOf(error);
    return { form, field: fieldKey(first?.field), message: first?.message ?? "Check the form and send it again.", status: 400, draft };
  }
  const [first] = messagesOf({ code: error.code, detail: error.detail, field: error.options.field });
  return { form, field: fieldKey(error.options.field), message: first.message, status: ERROR_CODES[error.code].status as DealRefusal["status"], draft };
}

/** Refusals a form shows; `not_found` (another lender's deal, another environment) is the 404 page instead, and anything else is not a refusal. */
export const isFormRefusal = (error: unknown): error is ApiError | z.ZodError =>
  error instanceof z.ZodError ||
  (error instanceof ApiError && ["invalid_request", "invalid_transition", "too_many_open_requests", "payload_too_large", "unsupported_media_type"].includes(error.code));
