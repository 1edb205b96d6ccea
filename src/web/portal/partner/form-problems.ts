/**
 * Refusals turned into what a form shows: one message per input (beside it)
 * and, for a problem no input holds, a message above the form. The messages are
 * the API's own (lib/validation.ts fieldProblems, or the service's ApiError).
 */
import type { z } from "@hono/zod-openapi";
import { ApiError } from "../../../lib/errors";
import { fieldProblems } from "../../../lib/validation";

export interface FormProblems {
  /** Input name → the first message about it. */
  byInput: Record<string, string>;
  /** Shown above the form: the first problem, so a screen reader hears it at once. */
  summary: { message: string; field: string | null };
}

type Locate = (field: string | null | undefined) => string | null;

function collect(problems: { field: string | null; message: string }[], locate: Locate, summary: string): FormProblems {
  const byInput: Record<string, string> = {};
  for (const problem of problems) {
    const input = locate(problem.field);
    if (input && !(input in byInput)) byInput[input] = problem.message;
  }
  return { byInput, summary: { message: summary, field: null } };
}

/** A zod refusal of the posted form, as the API would word it. */
export function problemsOfZod(error: z.ZodError, locate: Locate): FormProblems {
  // Parsed with reportInput, so an issue without input is a value left out: worded as the API words a
  // missing field ("… is required."), not as the enum's whole list of options.
  const problems = error.issues.flatMap((issue) =>
    issue.input === undefined && issue.code !== "unrecognized_keys" && issue.code !== "custom"
      ? [{ field: issue.path.map(String).join("."), message: `${issue.path.map(String).join(".")} is required.` }]
      : fieldProblems({ issues: [issue] } as z.ZodError),
  );
  const count = problems.length;
  return collect(problems, locate, count > 1 ? `${count} fields need attention: see the messages beside them.` : (problems[0]?.message ?? "The form is invalid."));
}

/** A service's refusal: `field` (and `errors` / `missing` when it lists several) placed beside their inputs. */
export function problemsOfApiError(error: ApiError, locate: Locate): FormProblems {
  const extra = (error.options.extra ?? {}) as { errors?: { field: string; message: string }[]; missing?: string[] };
  const listed = [
    ...(extra.errors ?? []),
    ...(extra.missing ?? []).map((field) => ({ field, message: `${field} is required before the lead can be submitted.` })),
  ];
  const problems = listed.length > 0 ? listed : [{ field: error.options.field ?? null, message: error.detail }];
  return collect(problems, locate, error.detail);
}

/** The refusal's HTTP status, as the API would answer it. */
export const statusOfApiError = (error: ApiError) => error.status as 400 | 404 | 409 | 422;
