/**
 * A refused form on the deal page: which form, which field (null when the
 * refusal is about the deal, not a field), the message and the HTTP status the
 * API would answer with. Built from the ApiError the lender API's own
 * validation or service threw, so the page and the API refuse alike.
 */
import type { z } from "@hono/zod-openapi";
import { ApiError, ERROR_CODES } from "../../../lib/errors";
import { validationError } from "../../../lib/validation";

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

export const refusalOf = (form: DealForm, error: ApiError, draft: Record<string, string>): DealRefusal => ({
  form,
  field: error.options.field ?? null,
  message: error.detail,
  status: ERROR_CODES[error.code].status as DealRefusal["status"],
  draft,
});

export const invalidForm = (form: DealForm, error: z.ZodError, draft: Record<string, string>) => refusalOf(form, validationError(error, "body"), draft);

/** Refusals a form shows; `not_found` (another lender's deal, another environment) is the 404 page instead, and anything else is not a refusal. */
export const isFormRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && ["invalid_request", "invalid_transition", "agreement_signed", "too_many_open_requests", "payload_too_large", "unsupported_media_type"].includes(error.code);
