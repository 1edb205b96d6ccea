/**
 * Refusals turned into what a form shows: one message per input (beside it)
 * and, for a problem no input holds, a message above the form. The words are
 * the person's, from the one messages map (web/kit/messages.ts); the API keeps
 * its developer messages.
 */
import type { z } from "@hono/zod-openapi";
import type { ApiError } from "../../../lib/errors";
import { messagesOf, type PageMessage } from "../../kit/messages";

export interface FormProblems {
  /** Input name → the first message about it. */
  byInput: Record<string, string>;
  /** Shown above the form: the first problem, so a screen reader hears it at once. */
  summary: { message: string; field: string | null };
  /** The input to put the focus on: the first one refused, in the form's order. */
  first?: string | null;
}

type Locate = (field: string | null | undefined) => string | null;

function collect(messages: PageMessage[], locate: Locate): FormProblems {
  const byInput: Record<string, string> = {};
  for (const m of messages) {
    const input = locate(m.field);
    if (input && !(input in byInput)) byInput[input] = m.message;
  }
  const count = messages.length;
  const message = count > 1 ? `${count} fields need attention: see the messages beside them.` : (messages[0]?.message ?? "Check the form and send it again.");
  return { byInput, summary: { message, field: null } };
}

/** A zod refusal of the posted form. */
export const problemsOfZod = (error: z.ZodError, locate: Locate) => collect(messagesOf(error), locate);

/** A service's refusal: `field` (and `errors` / `missing` when it lists several) placed beside their inputs. */
export function problemsOfApiError(error: ApiError, locate: Locate): FormProblems {
  const extra = (error.options.extra ?? {}) as { errors?: { field: string; message: string }[]; missing?: string[] };
  return collect(messagesOf({ code: error.code, detail: error.detail, field: error.options.field, errors: extra.errors, missing: extra.missing }), locate);
}

/** The refusal's HTTP status, as the API would answer it. */
export const statusOfApiError = (error: ApiError) => error.status as 400 | 404 | 409 | 422;
