import { describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { Lead, LeadCreate } from "../../src/api/shared/schemas/lead";
import { missingForSubmit } from "../../src/domain/leads/submission";
import { MARKETS } from "../../src/domain/reference/markets";

/** The schema at a dotted path, through optional and nullable wrappers; undefined when the path is not there. */
function schemaAt(schema: z.ZodType, path: string): z.ZodType | undefined {
  let at: z.ZodType | undefined = schema;
  for (const key of path.split(".")) {
    while (at instanceof z.ZodOptional || at instanceof z.ZodNullable) at = at.unwrap() as z.ZodType;
    if (!(at instanceof z.ZodObject)) return undefined;
    at = (at.shape as Record<string, z.ZodType>)[key];
    if (!at) return undefined;
  }
  return at;
}

describe("missing_fields names only paths of the lead", () => {
  // An empty lead misses every requirement of its market, so this walks each market's whole list.
  for (const market of MARKETS) {
    it(`${market.country}: every required path is a field of LeadCreate and of Lead`, () => {
      const missing = missingForSubmit({ business: null, trading: null, funding: null }, market);
      expect(missing).toHaveLength(market.required_for_submit.length);
      for (const path of missing) {
        expect(schemaAt(LeadCreate, path), `${path} in LeadCreate`).toBeDefined();
        expect(schemaAt(Lead, path), `${path} in Lead`).toBeDefined();
      }
    });
  }
  it("the walker finds nested fields and refuses absent ones", () => {
    expect(schemaAt(LeadCreate, "trading.tib_months")).toBeDefined();
    expect(schemaAt(LeadCreate, "trading.nothing")).toBeUndefined();
  });
});
