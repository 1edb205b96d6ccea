import { createRoute, z } from "@hono/zod-openapi";
import { ENUM_NAMES } from "../../../domain/reference/catalogue";
import { errorResponses, jsonContent, security } from "../../openapi";
import { CountryInput } from "../../shared/schemas/common";

export const EnumCatalogue = z
  .object({
    enums: z.array(
      z.object({
        name: z.enum(ENUM_NAMES),
        description: z.string(),
        requires_country: z.boolean(),
        url: z.string().openapi({ example: "/partner/v1/enums/revenue-bands?country=GB" }),
      }),
    ),
  })
  .openapi("EnumCatalogue");

export const EnumList = z
  .object({
    name: z.enum(ENUM_NAMES),
    country: z.string().nullable().openapi({ description: "Market code the list is for; null for global lists." }),
    values: z.array(
      z.looseObject({ value: z.string(), label: z.string() }).openapi({ description: "Lists add their own metadata (bounds, currency, market data)." }),
    ),
  })
  .openapi("EnumList");

export const listEnums = createRoute({
  method: "get",
  path: "/enums",
  summary: "The catalogue of every reference list and where to read it",
  tags: ["Reference data"],
  security: security.partner,
  responses: { 200: jsonContent(EnumCatalogue, "Every reference list"), ...errorResponses("origin_not_allowed") },
});

export const getEnum = createRoute({
  method: "get",
  path: "/enums/{name}",
  summary: "One reference list",
  description: "`country` is required for company-types, funding-amount-bands and revenue-bands; the other lists are global.",
  tags: ["Reference data"],
  security: security.partner,
  request: {
    params: z.object({ name: z.string().openapi({ param: { name: "name", in: "path" }, example: "revenue-bands" }) }),
    query: z.object({ country: CountryInput.optional() }),
  },
  responses: {
    200: jsonContent(EnumList, "The list"),
    ...errorResponses("invalid_request", "not_found", "origin_not_allowed"),
  },
});
