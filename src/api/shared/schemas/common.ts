import { z } from "@hono/zod-openapi";
import { countryProblem, resolveCountry, type Market } from "../../../domain/reference/markets";

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
