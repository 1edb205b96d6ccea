import { z } from "@hono/zod-openapi";
import { DOCUMENT_REJECTION_REASONS, DOCUMENT_STATE_VALUES } from "../../../domain/reference/values";
import { Timestamp } from "./common";

/** The one description of the flag, shared by every document object the APIs return. */
export const FORMULA_CELLS =
  "A CSV holding a cell a spreadsheet would run as a formula (one starting with `=`, `+`, `-` or `@` that is not a signed number, e.g. `=HYPERLINK(…)` or `=cmd|…`; OWASP CSV injection). The file is served as it came: open it in a text viewer, or import it with formulas off. False for every other file.";

const REASONS = DOCUMENT_REJECTION_REASONS.map((r) => r.value) as unknown as readonly [string, ...string[]];

export const PartnerDocument = z
  .object({
    id: z.string(),
    document_type: z.string().openapi({ example: "bank_statements" }),
    filename: z.string(),
    byte_size: z.number().int(),
    state: z.string().openapi({ enum: [...DOCUMENT_STATE_VALUES], example: "accepted" }),
    // A zod enum made nullable generates an enum that lists null too, so a null reason validates.
    reason: z.enum(REASONS).nullable().openapi({ description: "Why a rejected document was rejected; null when accepted." }),
    formula_cells: z.boolean().openapi({ description: FORMULA_CELLS, example: false }),
    received_at: Timestamp,
  })
  .openapi("PartnerDocument");
