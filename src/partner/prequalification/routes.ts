import { createRoute, z } from "@hono/zod-openapi";
import { MATCH_DECISIONS, REASON_CODES } from "../../domain/matcher";
import { countryProblem, resolveCountry } from "../../domain/reference/markets";
import {
  CREDIT_SCORE_BAND_VALUES,
  FUNDING_AMOUNT_BAND_VALUES,
  INDUSTRY_VALUES,
  PRODUCT_FAMILY_VALUES,
  PURPOSE_VALUES,
  REVENUE_BAND_VALUES,
  TIME_IN_BUSINESS_BAND_VALUES,
} from "../../domain/reference/values";
import { IGNORES_IDEMPOTENCY_KEY } from "../../lib/declared-responses";
import { errorResponses, jsonBody, jsonContent, security } from "../../lib/openapi";

const Money = z.number().finite().nonnegative();

/**
 * Like `CountryInput`, except that Germany and Italy parse: prequalification
 * answers them 200 `out_of_scope` rather than refusing the request. Unknown
 * countries are still a 400 naming `country`.
 */
const PrequalificationCountry = z
  .string()
  .max(64)
  .transform((input, ctx) => {
    const resolution = resolveCountry(input);
    if (resolution.ok || resolution.reason === "refused") return { input, resolution };
    ctx.addIssue({ code: "custom", message: countryProblem(resolution, input) });
    return z.NEVER;
  })
  .openapi({
    type: "string",
    example: "GB",
    description: "Alpha-2 (`GB` or `UK`), alpha-3 or English name. Germany and Italy are answered `out_of_scope`.",
  });

export const PrequalificationRequest = z
  .strictObject({
    country: PrequalificationCountry,
    business: z.strictObject({ industry: z.enum(INDUSTRY_VALUES).optional() }).optional(),
    funding: z
      .strictObject({
        purpose: z.enum(PURPOSE_VALUES),
        amount: Money.optional().openapi({ description: "Major units of the market currency. This or `amount_band` is required.", example: 50_000 }),
        amount_band: z
          .enum(FUNDING_AMOUNT_BAND_VALUES)
          .optional()
          .openapi({ description: "From `/enums/funding-amount-bands`; used only when `amount` is absent (its midpoint, basis noted)." }),
      })
      .refine((f) => f.amount !== undefined || f.amount_band !== undefined, {
        message: "funding.amount or funding.amount_band is required",
        path: ["amount"],
      }),
    trading: z
      .strictObject({
        monthly_revenue: Money.optional().openapi({ description: "Major units of the market currency.", example: 40_000 }),
        monthly_revenue_band: z.enum(REVENUE_BAND_VALUES).optional().openapi({ description: "From `/enums/revenue-bands`." }),
        annual_turnover: Money.optional().openapi({
          description: "Used only when `monthly_revenue` is absent: monthly revenue is taken as a twelfth of it (basis `annual_turnover`).",
        }),
        tib_months: z.number().int().nonnegative().max(1200).optional().openapi({ description: "Months trading." }),
        time_in_business_band: z.enum(TIME_IN_BUSINESS_BAND_VALUES).optional(),
        credit_score_band: z
          .enum(CREDIT_SCORE_BAND_VALUES)
          .optional()
          .openapi({ description: "United States and Canada only; ignored in other markets." }),
      })
      .optional(),
  })
  .openapi("PrequalificationRequest");

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
