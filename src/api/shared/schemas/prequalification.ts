import { z } from "@hono/zod-openapi";
import { countryProblem, resolveCountry } from "../../../domain/reference/markets";
import {
  CREDIT_SCORE_BAND_VALUES,
  FUNDING_AMOUNT_BAND_VALUES,
  INDUSTRY_VALUES,
  PURPOSE_VALUES,
  REVENUE_BAND_VALUES,
  TIME_IN_BUSINESS_BAND_VALUES,
} from "../../../domain/reference/values";

/**
 * The prequalification request: validated by POST /partner/v1/prequalification
 * and by the portal's prequalification form alike (one schema, one set of messages).
 */

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
