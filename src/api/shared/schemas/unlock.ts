import { z } from "@hono/zod-openapi";
import { REQUIREMENT_FIELD_VALUES } from "../../../domain/panel/requirements";
import { UNLOCK_FIELDS } from "../../../domain/panel/unlocks";

/** One unlock (domain/panel/unlocks.ts): prequalification's answer and the submitted lead carry the same shape. */
export const UnlockItem = z.object({
  field: z.enum([...UNLOCK_FIELDS, ...REQUIREMENT_FIELD_VALUES]).openapi({
    description:
      "The request field whose value would change, or something a product requires the application to hold (`GET /enums/requirement-fields`; [Requirements](/docs/guides/matcher#requirements)).",
  }),
  needed: z.union([z.number(), z.string(), z.literal(true)]).openapi({
    description:
      "The nearest value at which more options fit: major units for money, months for time trading, a band value for the credit score band; `true` for a requirement (hold it).",
    example: 12,
  }),
  options_added: z.number().int().openapi({ description: "How many more options would fit at that value.", example: 2 }),
});

/** What to add for more options: the fields products lack together, and how many options they would add. */
export const NeedItem = z
  .object({
    fields: z.array(z.enum(REQUIREMENT_FIELD_VALUES)).min(1).openapi({
      description: "Requirement fields the application does not hold (`GET /enums/requirement-fields` has their labels); all of them together add the options.",
      example: ["significant_persons[].guarantee"],
    }),
    options_added: z.number().int().openapi({ description: "How many more options would fit with them.", example: 1 }),
  })
  .openapi("Need");
