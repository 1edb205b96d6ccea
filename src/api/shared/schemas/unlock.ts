import { z } from "@hono/zod-openapi";
import { UNLOCK_FIELDS } from "../../../domain/panel/unlocks";

/** One unlock (domain/panel/unlocks.ts): prequalification's answer and the submitted lead carry the same shape. */
export const UnlockItem = z.object({
  field: z.enum(UNLOCK_FIELDS).openapi({ description: "The request field whose value would change." }),
  needed: z.union([z.number(), z.string()]).openapi({
    description: "The nearest value at which more options fit: major units for money, months for time trading, a band value for the credit score band.",
    example: 12,
  }),
  options_added: z.number().int().openapi({ description: "How many more options would fit at that value.", example: 2 }),
});
