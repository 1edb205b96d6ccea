import type { z } from "zod";
import { Refusal } from "./refusal";

export interface FieldProblem {
  field: string;
  message: string;
}

const fieldPath = (path: readonly PropertyKey[]) => path.map(String).join(".");

/** Flattens zod issues into field paths; unknown keys are named one by one. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.flatMap((issue): FieldProblem[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        field: fieldPath([...issue.path, key]),
        message: `Unknown field "${fieldPath([...issue.path, key])}"; it is not part of this request.`,
      }));
    }
    const field = fieldPath(issue.path);
    if (issue.code === "invalid_type" && issue.input === undefined) {
      return [{ field, message: `${field} is required.` }];
    }
    return [{ field, message: field ? `${field}: ${issue.message}` : issue.message }];
  });
}

/** A schema's check that refuses a usable-looking value with 422 `invalid_value` (a name with a bidi control) marks its issue with this. */
export const INVALID_VALUE = { refusal: "invalid_value" } as const;

const isInvalidValueIssue = (issue: z.core.$ZodIssue) => issue.code === "custom" && (issue.params as { refusal?: string } | undefined)?.refusal === "invalid_value";

/**
 * The one shape every validation failure takes: 400 `invalid_request` naming the field;
 * 422 `invalid_value` when every problem is a well-formed value the service refuses
 * (a name carrying a control or text-direction character).
 */
export function validationError(error: z.ZodError, target: string): Refusal {
  const problems = fieldProblems(error).map((p) => ({
    ...p,
    field: target === "query" || target === "param" ? (p.field ? `${target}.${p.field}` : target) : p.field,
  }));
  const first = problems[0] ?? { field: target, message: "The request is invalid." };
  const detail = problems.length > 1 ? `${first.message} (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : first.message;
  const code = error.issues.length > 0 && error.issues.every(isInvalidValueIssue) ? "invalid_value" : "invalid_request";
  return new Refusal(code, detail, { field: first.field || undefined, extra: { errors: problems } });
}
