import { createRoute, z } from "@hono/zod-openapi";
import { ALL_COMPANY_TYPE_VALUES, CREDIT_SCORE_BAND_VALUES, INDUSTRY_VALUES, PRODUCT_FAMILY_VALUES, PURPOSE_VALUES } from "../../../domain/reference/values";
import { errorResponses, jsonBody, jsonContent } from "../../openapi";
import { CountryInput } from "../../shared/schemas/common";
import { REQUIREMENT_FIELD_VALUES } from "../../../domain/panel/requirements";

const Amount = z.number().finite().nonnegative();

/** A `{min, max}` range; `min` above `max` is refused naming `max`. */
const range = (value: z.ZodNumber, example: { min: number; max: number }) =>
  z
    .strictObject({ min: value, max: value })
    .refine((r) => r.min <= r.max, { message: "max must be at least min", path: ["max"] })
    .openapi({ example });

const Pricing = z
  .strictObject({
    annual_rate_pct: range(z.number().finite().nonnegative().max(200), { min: 9.5, max: 24 })
      .optional()
      .openapi({ description: "Annual interest rate range, percent; amortising products. Exactly one of this and `factor_rate`." }),
    factor_rate: range(z.number().finite().min(1).max(3), { min: 1.12, max: 1.4 })
      .optional()
      .openapi({ description: "Factor rate range (repay amount × factor); advances. Exactly one of this and `annual_rate_pct`." }),
    term_months: range(z.number().int().min(1).max(360), { min: 6, max: 36 }),
    fee_pct: z.number().finite().nonnegative().max(100).openapi({ description: "Arrangement fee, percent of the amount.", example: 2 }),
  })
  .superRefine((p, ctx) => {
    if (!p.annual_rate_pct === !p.factor_rate) {
      ctx.addIssue({ code: "custom", path: ["annual_rate_pct"], message: "give exactly one of annual_rate_pct and factor_rate" });
    }
  })
  .openapi("ProductPricing", { description: "Price ranges; sandbox offers are simulated within them." });

/** One requirement: a field from the requirement-fields list, and when it applies (every condition given must hold). */
const RequirementInput = z
  .strictObject({
    field: z.enum(REQUIREMENT_FIELD_VALUES).openapi({ description: "What the application must hold (`GET /admin/v1/enums/requirement-fields`)." }),
    when: z
      .strictObject({
        entity_types: z.array(z.enum(ALL_COMPANY_TYPE_VALUES)).min(1).max(20).optional().openapi({ description: "Applies only to these company types." }),
        amount_below: Amount.optional().openapi({ description: "Applies only when the funding amount is below this (major units of the product's currency)." }),
        amount_at_least: Amount.optional().openapi({ description: "Applies only when the funding amount is at least this." }),
      })
      .refine((w) => Object.keys(w).length > 0, { message: "give at least one condition, or leave when out" })
      .optional()
      .openapi({ description: "When the requirement applies; absent means always. A condition on a fact the service does not hold does not hold." }),
  })
  .openapi("PanelProductRequirement", { example: { field: "significant_persons[].guarantee", when: { entity_types: ["sole_trader"], amount_below: 100000 } } });

export const ProductInput = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "letters, digits, _ and -, at most 64")
      .optional()
      .openapi({ description: "Stable id within the lender; generated when absent. Send it back to keep it across replacements.", example: "gb-term-loan" }),
    product_family: z.enum(PRODUCT_FAMILY_VALUES),
    label: z
      .string()
      .trim()
      .min(1)
      .max(120)
      .openapi({ description: "Structural description shown to partners; never a provider name.", example: "Term loan 6-36 months" }),
    markets: z
      .array(CountryInput)
      .min(1)
      .max(20)
      .openapi({ description: "Markets served (alpha-2, alpha-3 or name); all must share one currency.", example: ["GB"] }),
    min_amount: Amount.openapi({ description: "Major units of the markets' currency.", example: 10_000 }),
    max_amount: Amount.openapi({ example: 250_000 }),
    min_monthly_revenue: Amount.default(0),
    min_months_trading: z.number().int().nonnegative().max(1200).default(0),
    min_credit_score_band: z
      .enum(CREDIT_SCORE_BAND_VALUES)
      .nullable()
      .default(null)
      .openapi({ description: "Applies only in markets that carry a credit score (United States, Canada)." }),
    excluded_industries: z.array(z.enum(INDUSTRY_VALUES)).max(50).default([]),
    purposes: z.array(z.enum(PURPOSE_VALUES)).max(50).default([]).openapi({ description: "Purposes served; empty means every purpose." }),
    pricing: Pricing,
    requires: z.array(RequirementInput).max(20).default([]).openapi({
      description:
        "What the application must hold for this product, some only under a condition; submit routes a lead only to products whose requirements it meets ([Requirements](/docs/guides/matcher#requirements)).",
    }),
  })
  .superRefine((p, ctx) => {
    if (p.min_amount > p.max_amount) ctx.addIssue({ code: "custom", path: ["max_amount"], message: "max_amount must be at least min_amount" });
    const currencies = new Set(p.markets.map((m) => m.currency));
    if (currencies.size > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["markets"],
        message: `a product's markets must share one currency so its limits mean one amount (got ${[...currencies].join(", ")}); split it per currency`,
      });
    }
  })
  .openapi("PanelProductInput");

export const ReplaceProducts = z
  .strictObject({ products: z.array(ProductInput).max(100) })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.products.forEach((p, i) => {
      if (!p.id) return;
      if (seen.has(p.id)) ctx.addIssue({ code: "custom", path: ["products", i, "id"], message: `duplicate product id ${p.id}` });
      seen.add(p.id);
    });
  })
  .openapi("ReplacePanelProducts");

const RangeOut = z.object({ min: z.number(), max: z.number() });

export const PanelProductSchema = z
  .object({
    id: z.string(),
    product_family: z.enum(PRODUCT_FAMILY_VALUES),
    label: z.string(),
    markets: z.array(z.string()).openapi({ example: ["GB"] }),
    currency: z.string().openapi({ description: "The one currency of the product's markets; every limit is in it.", example: "GBP" }),
    min_amount: z.number(),
    max_amount: z.number(),
    min_monthly_revenue: z.number(),
    min_months_trading: z.number().int(),
    min_credit_score_band: z.enum(CREDIT_SCORE_BAND_VALUES).nullable(),
    excluded_industries: z.array(z.enum(INDUSTRY_VALUES)),
    purposes: z.array(z.enum(PURPOSE_VALUES)),
    pricing: z.object({
      annual_rate_pct: RangeOut.nullable(),
      factor_rate: RangeOut.nullable(),
      term_months: RangeOut,
      fee_pct: z.number(),
    }),
    requires: z.array(RequirementInput),
  })
  .openapi("PanelProduct");

export const PanelProductList = z
  .object({ organisation_id: z.string(), products: z.array(PanelProductSchema) })
  .openapi("PanelProductList");

const IdParam = z.object({ id: z.string().max(64).openapi({ param: { name: "id", in: "path" } }) });
const admin = [{ adminToken: [] }];

export const replaceProductsRoute = createRoute({
  method: "put",
  path: "/organisations/{id}/products",
  summary: "Replace a lender's panel products",
  description:
    "Replaces the lender's whole product list in one step; products left out are removed. Only lender organisations hold products. Matching sees the change within the panel cache lifetime (60 s).",
  tags: ["Operator"],
  security: admin,
  request: { params: IdParam, body: jsonBody(ReplaceProducts) },
  responses: { 200: jsonContent(PanelProductList, "The lender's products"), ...errorResponses("invalid_request", "not_found", "unauthorized") },
});

export const listProductsRoute = createRoute({
  method: "get",
  path: "/organisations/{id}/products",
  summary: "A lender's panel products",
  tags: ["Operator"],
  security: admin,
  request: { params: IdParam },
  responses: { 200: jsonContent(PanelProductList, "The lender's products"), ...errorResponses("invalid_request", "not_found", "unauthorized") },
});
