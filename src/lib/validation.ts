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

/** The one shape every validation failure takes: 400 `invalid_request` naming the field. */
export function validationError(error: z.ZodError, target: string): Refusal {
  const problems = fieldProblems(error).map((p) => ({
    ...p,
    field: target === "query" || target === "param" ? (p.field ? `${target}.${p.field}` : target) : p.field,
  }));
  const first = problems[0] ?? { field: target, message: "The request is invalid." };
  const detail = problems.length > 1 ? `${first.message} (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : first.message;
  return new Refusal("invalid_request", detail, { field: first.field || undefined, extra: { errors: problems } });
}
