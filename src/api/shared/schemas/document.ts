import { z } from "@hono/zod-openapi";
import { DOCUMENT_REJECTION_REASONS, DOCUMENT_STATE_VALUES } from "../../../domain/reference/values";
import { Timestamp } from "./common";

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
    received_at: Timestamp,
  })
  .openapi("PartnerDocument");
