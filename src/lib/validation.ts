import type { z } from "zod";
import { Refusal } from "./refusal";

export interface FieldProblem {
  field: string;
  message: string;
}

const fieldPath = (path: readonly PropertyKey[]) => path.map(String).join(".");

/** What a type is called in a message: "must be a string (text)". */
const EXPECTED_WORDS: Record<string, string> = {
  string: "a string (text)",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false (a boolean)",
  array: "an array (a list)",
  tuple: "an array (a list)",
  object: "an object",
  record: "an object",
  date: "a date",
};

/** What was sent instead, in the same words. */
function receivedWords(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return Number.isNaN(value) ? "NaN" : "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

/** The value at a path of the input, and whether anything is there at all. */
function valueAt(input: unknown, path: readonly PropertyKey[]): { present: boolean; value?: unknown } {
  let here: unknown = input;
  for (const key of path) {
    if (here === null || typeof here !== "object" || !Object.hasOwn(here, key)) return { present: false };
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here === undefined ? { present: false } : { present: true, value: here };
}

/**
 * What was sent for the field an issue is about: the value at the issue's path of the input that was
 * parsed, as sent (before any preprocessing). Never zod's message text, which a schema may word itself,
 * nor the issue's own `input` (a refinement's is the whole object it refined).
 */
export const sentFor = (issue: z.core.$ZodIssue, input: unknown): { present: boolean; value?: unknown } => valueAt(input, issue.path);

/**
 * Flattens zod issues into field paths; unknown keys are named one by one. `input` is the value
 * that was parsed, so a field of the wrong type is told apart from an absent one ("is required").
 */
export function fieldProblems(error: z.ZodError, input: unknown): FieldProblem[] {
  return error.issues.flatMap((issue): FieldProblem[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        field: fieldPath([...issue.path, key]),
        message: `Unknown field "${fieldPath([...issue.path, key])}"; it is not part of this request.`,
      }));
    }
    const field = fieldPath(issue.path);
    if (issue.code === "invalid_type") {
      const sent = sentFor(issue, input);
      if (!sent.present) return [{ field, message: `${field || "The body"} is required.` }];
      const expected = EXPECTED_WORDS[issue.expected];
      if (expected) return [{ field, message: `${field || "The body"} must be ${expected}; received ${receivedWords(sent.value)}.` }];
    }
    return [{ field, message: field ? `${field}: ${issue.message}` : issue.message }];
  });
}

/** The one shape every validation failure takes: `invalid_request` naming the field. */
export function validationError(error: z.ZodError, target: string, input: unknown): Refusal {
  const problems = fieldProblems(error, input).map((p) => ({
    ...p,
    field: target === "query" || target === "param" ? (p.field ? `${target}.${p.field}` : target) : p.field,
  }));
  const first = problems[0] ?? { field: target, message: "The request is invalid." };
  const detail = problems.length > 1 ? `${first.message} (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : first.message;
  return new Refusal("invalid_request", detail, { field: first.field || undefined, extra: { errors: problems } });
}
