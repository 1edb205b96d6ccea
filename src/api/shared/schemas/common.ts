import { z } from "@hono/zod-openapi";
import { countryProblem, resolveCountry, type Market } from "../../../domain/reference/markets";
import { FORBIDDEN_LINES_MESSAGE, FORBIDDEN_TEXT_MESSAGE, hasForbiddenTextCharacter } from "../../../lib/unicode";

/**
 * Text a person types, under the one text rule (src/lib/unicode.ts): trimmed, at least `min` and at
 * most `max` characters, no control, invisible or text-direction character (400 `invalid_request`
 * naming the field). `lines` keeps line breaks and tabs for a message, a note or a reason. Every
 * free-text field of the APIs and the portal's forms is one of these.
 */
export const PlainText = (max: number, shape: { lines?: boolean; min?: number } = {}) =>
  z
    .string()
    .trim()
    .min(shape.min ?? 0)
    .max(max)
    .refine((v) => !hasForbiddenTextCharacter(v, shape), { message: shape.lines ? FORBIDDEN_LINES_MESSAGE : FORBIDDEN_TEXT_MESSAGE });

/**
 * A country as integrators send it: alpha-2 (GB or UK), alpha-3 or a plain
 * name. Parses to the market; Germany, Italy and unknown countries are refused
 * with a message naming the supported markets.
 */
export const CountryInput = z
  .string()
  .max(64)
  .transform((input, ctx): Market => {
    const resolution = resolveCountry(input);
    if (resolution.ok) return resolution.market;
    ctx.addIssue({ code: "custom", message: countryProblem(resolution, input) });
    return z.NEVER;
  })
  .openapi({ type: "string", example: "GB", description: "Alpha-2 (`GB` or `UK`), alpha-3 or English name. Germany and Italy are refused." });

/** The page size every list takes (`?limit=`): a whole number from 1 to 100, 25 when absent. The APIs and the portal read it alike. */
export const ListLimit = z.coerce.number().int().min(1).max(100).default(25);

export const Timestamp = z.string().openapi({ format: "date-time", example: "2026-11-22T09:30:00.000Z" });

/** The header every keyed POST of the partner API takes (the idempotency middleware reads it; declared here once for the OpenAPI). */
export const IdempotencyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .max(255)
    .optional()
    .openapi({ description: "Makes a retry safe: the same key and body within 24 hours answer the first response again (`Idempotent-Replayed: true`)." }),
});
