import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { Refusal } from "../lib/refusal";
import { firstInvalidText } from "../lib/unicode";
import { validationError } from "../lib/validation";

/** What the validator hands the hook: `data` is the value it parsed (zod-validator always passes it). */
type ValidationResult = { target: string; data?: unknown } & ({ success: true } | { success: false; error: z.ZodError });

/** A parameter sent twice (`?limit=1&limit=2`) reaches its schema as an array; name the repetition, not a type error. */
function repeatedQueryParameter(c: Context, error: z.ZodError): Refusal | undefined {
  for (const issue of error.issues) {
    const name = issue.path.length === 1 ? issue.path[0] : undefined;
    const count = typeof name === "string" ? (c.req.queries(name)?.length ?? 0) : 0;
    if (count > 1) {
      const field = `query.${String(name)}`;
      const message = `${String(name)} is given ${count} times; send it once.`;
      return new Refusal("invalid_request", message, { field, extra: { errors: [{ field, message }] } });
    }
  }
  return undefined;
}

/**
 * Text that is not valid Unicode (a lone surrogate such as "\ud800") cannot be
 * stored as it was sent, so it is refused before anything acknowledges it.
 * Checked on the body as sent, keys included, for every JSON body of every route.
 */
async function invalidTextInBody(c: Context): Promise<Refusal | undefined> {
  const field = firstInvalidText(await c.req.json());
  if (field === undefined) return undefined;
  const message = `${field || "The body"} contains an unpaired UTF-16 surrogate; send valid Unicode text.`;
  return new Refusal("invalid_request", message, { field: field || undefined, extra: { errors: [{ field, message }] } });
}

/** The one validation hook of every router: every failure is 400 `invalid_request` naming the field. */
export async function validationHook(result: ValidationResult, c: Context) {
  if (!result.success) throw (result.target === "query" && repeatedQueryParameter(c, result.error)) || validationError(result.error, result.target, result.data);
  if (result.target === "json") {
    const invalid = await invalidTextInBody(c);
    if (invalid) throw invalid;
  }
}
