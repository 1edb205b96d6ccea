import { createRoute, z } from "@hono/zod-openapi";
import { MATCH_DECISIONS, REASON_CODES } from "../../../domain/panel/matcher";
import { PRODUCT_FAMILY_VALUES } from "../../../domain/reference/values";
import { IGNORES_IDEMPOTENCY_KEY } from "../../declared-responses";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { PrequalificationRequest } from "../../shared/schemas/prequalification";
import { UnlockItem } from "../../shared/schemas/unlock";

const nullableFigure = (description: string) => z.number().nullable().openapi({ description });
const basis = z.string().nullable().openapi({ description: "`reported`, `annual_turnover`, `band_midpoint` or `band_lower_bound`; null when the figure is unknown." });

export const Prequalification = z
  .object({
    country: z.string().openapi({ description: "Market code (`UK` for the United Kingdom); the alpha-2 of a refused country.", example: "UK" }),
    currency: z.string().openapi({ description: "Market currency (for a refused country, that country's own: `EUR`).", example: "GBP" }),
    eligible: z.boolean(),
    decision: z.enum(MATCH_DECISIONS),
    matched_options: z.number().int(),
    product_families: z.array(
      z.object({
        product_family: z.enum(PRODUCT_FAMILY_VALUES),
        label: z.string(),
        options: z.number().int(),
      }),
    ),
    indicative_amount: z
      .object({ min: z.number(), max: z.number(), currency: z.string(), basis: z.literal("panel_limits") })
      .nullable()
      .openapi({ description: "The span of the matched options' amount limits; null when nothing matched." }),
    reasons: z.array(z.object({ code: z.enum(REASON_CODES), detail: z.string() })),
    unlocks: z
      .array(UnlockItem)
      .openapi({
        description:
          "What would unlock more options, the nearest change per field, read from the panel's own thresholds by the same matcher (never a provider's name). Empty when nothing nearer would add an option or the figure is unknown.",
      }),
    figures: z
      .object({
        amount: nullableFigure("The amount matched on."),
        amount_basis: basis,
        monthly_revenue: nullableFigure("The monthly revenue matched on."),
        monthly_revenue_basis: basis,
        tib_months: nullableFigure("The months trading matched on."),
        tib_months_basis: basis,
      })
      .openapi({ description: "The figures the answer rests on, each with its basis, so a band is never mistaken for a reported number." }),
    supported_countries: z.array(z.string()).openapi({ example: ["UK", "US", "CA"] }),
    disclaimer: z.string(),
  })
  .openapi("Prequalification");

export const prequalifyRoute = createRoute({
  method: "post",
  path: "/prequalification",
  summary: "Indicative eligibility, without creating a lead",
  description:
    "Answers with the same matcher production routing uses. No lead is created, no credit search is run, nothing is stored. Callable from a browser with a publishable key.",
  tags: ["Prequalification"],
  security: security.partner,
  // Stores nothing, so partner/index.ts mounts no idempotency guard on it.
  ...IGNORES_IDEMPOTENCY_KEY,
  request: { body: jsonBody(PrequalificationRequest) },
  responses: {
    200: jsonContent(Prequalification, "The indicative answer"),
    ...errorResponses("invalid_request", "origin_not_allowed"),
  },
});
