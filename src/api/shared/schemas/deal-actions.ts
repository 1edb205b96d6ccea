/**
 * What a lender sends about a deal (a status report, an offer, a message, a
 * document request, the agreement PDF): one definition that the lender API's
 * routes validate with and the portal's lender forms validate with, so a form
 * and an API call are refused for the same reasons.
 */
import { z } from "@hono/zod-openapi";
import { DECLINE_REASON_VALUES, REQUEST_ITEM_TYPE_VALUES } from "../../../domain/reference/values";
import { Refusal } from "../../../lib/refusal";
import { PlainText } from "./common";
import { UPLOAD_BODY_LIMIT_BYTES } from "../../../middleware/body-limit";

const DECLINE_DETAIL_MAX_CHARS = 500;
const MAX_DECLINE_REASONS = 10;

const DeclineReasonInput = z
  .strictObject({
    // A string here, not an enum: a code outside the list is 422 `unknown_code` naming `reasons.N.code`
    // (src/domain/deals/decline.ts), not a malformed body; the document still lists the codes.
    code: z.string().trim().min(1).max(64).openapi({ enum: [...DECLINE_REASON_VALUES], description: "A value of the `decline-reasons` enum list.", example: "trading_history_too_short" }),
    detail: PlainText(DECLINE_DETAIL_MAX_CHARS, { lines: true, min: 1 }).optional().openapi({ description: "Your note. Read by you and the operator only, unless `shareable` is true: then the partner reads it beside the code's label, so never name yourself in it." }),
    shareable: z.boolean().optional().openapi({ description: "Show `detail` to the partner (default false)." }),
  })
  .openapi("DeclineReasonInput");

export const StatusBody = z
  .strictObject({
    status: z.enum(["in_review", "declined", "funded"]),
    reasons: z
      .array(DeclineReasonInput)
      .min(1)
      .max(MAX_DECLINE_REASONS)
      .optional()
      .openapi({ description: "With `declined` only: why, as codes of the `decline-reasons` list (at least one). An unknown code is 422 `unknown_code` naming `reasons.N.code`." }),
    reason: PlainText(500, { lines: true, min: 1 }).optional().openapi({ deprecated: true, description: "Deprecated: send `reasons`. Free text, taken as `reasons: [{code: \"other\", detail: reason}]` (not shareable)." }),
    funded_amount: z.number().finite().positive().max(1_000_000_000_000).optional().openapi({ description: "Required with `funded`; major units; at most the amount of the offer the partner accepted on the deal (while none is accepted, of the deal's current offer), else 422 `amount_above_offer`." }),
    funded_on: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a calendar date, YYYY-MM-DD")
      .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "must be a real calendar date")
      .optional()
      .openapi({ example: "2026-11-27", description: "With `funded` only, optional: the day the money was paid out (not in the future, not before the deal arrived); the lead's `funding_outcome.funded_at` is that day. Without it, the moment of the report." }),
  })
  .superRefine((r, ctx) => {
    if (r.status !== "funded" && r.funded_on !== undefined) ctx.addIssue({ code: "custom", path: ["funded_on"], message: "is only taken with status funded" });
    if (r.status !== "declined" && r.reasons !== undefined) ctx.addIssue({ code: "custom", path: ["reasons"], message: "is only taken with status declined" });
    if (r.reasons !== undefined && r.reason !== undefined) ctx.addIssue({ code: "custom", path: ["reason"], message: "send reasons or the deprecated reason, not both" });
  })
  .openapi("DealStatusReport");

const Money = z.number().finite().nonnegative().max(1_000_000_000_000);

export const OfferBody = z
  .strictObject({
    maturity: z.enum(["indicative", "firm"]),
    amount: z.number().finite().positive().max(1_000_000_000_000),
    kind: PlainText(50, { min: 1 }).openapi({ example: "business_loan", description: "What is offered; a product family value gives the partner its label." }),
    annual_rate_pct: z.number().finite().nonnegative().max(1000).optional(),
    factor_rate: z.number().finite().min(1).max(10).optional(),
    term_months: z.number().int().min(1).max(600).optional(),
    fees: Money.optional(),
    total_repayment: Money.optional(),
    expires_at: z.iso.datetime({ offset: true }).optional().openapi({ description: "Must be in the future." }),
    notes: PlainText(2000, { lines: true }).optional(),
  })
  .superRefine((o, ctx) => {
    if ((o.annual_rate_pct === undefined) === (o.factor_rate === undefined)) {
      ctx.addIssue({ code: "custom", path: ["annual_rate_pct"], message: "exactly one of annual_rate_pct and factor_rate is required" });
    }
    if (o.expires_at !== undefined && new Date(o.expires_at).getTime() <= Date.now()) {
      ctx.addIssue({ code: "custom", path: ["expires_at"], message: "must be in the future" });
    }
  })
  .openapi("DealOfferCreate");

export const MESSAGE_MAX_CHARS = 5000;
export const MessageBody = z.strictObject({ body: PlainText(MESSAGE_MAX_CHARS, { lines: true, min: 1 }) }).openapi("MessageCreate");

export const NOTE_MAX_CHARS = 500;

export const DocumentRequestBody = z
  .strictObject({
    item_type: z.enum(REQUEST_ITEM_TYPE_VALUES).openapi({ description: "What is asked for: a value of the `document-request-items` enum list." }),
    note: PlainText(NOTE_MAX_CHARS, { lines: true, min: 1 }).optional().openapi({ description: "Shown to the client with the request." }),
  })
  .openapi("DocumentRequestCreate");

/** The agreement upload's limit: the one every file-taking route has (the body limit, and the PDF itself checked again). */
export const AGREEMENT_MAX_BYTES = UPLOAD_BODY_LIMIT_BYTES;

/**
 * The agreement is a PDF of at most AGREEMENT_MAX_BYTES: the raw body of
 * `PUT /v1/deals/{ref}/agreement`, or the file of the portal's upload form.
 * `field` names where the bytes came from (`body`, or the form's `agreement`).
 */
export function checkAgreementPdf(contentType: string, pdf: ArrayBuffer, field: string) {
  if (contentType.split(";")[0].trim().toLowerCase() !== "application/pdf") {
    throw new Refusal("unsupported_media_type", field === "body" ? "Send the agreement as the raw body with Content-Type: application/pdf." : "The agreement must be a PDF file.", field === "body" ? {} : { field });
  }
  if (pdf.byteLength > AGREEMENT_MAX_BYTES) throw new Refusal("payload_too_large", `The agreement exceeds ${AGREEMENT_MAX_BYTES} bytes.`, field === "body" ? {} : { field });
  if (pdf.byteLength === 0) throw new Refusal("invalid_request", "The body is empty; send the agreement PDF.", { field });
  if (new TextDecoder().decode(new Uint8Array(pdf, 0, Math.min(5, pdf.byteLength))) !== "%PDF-") {
    throw new Refusal("invalid_request", "The body is not a PDF (it does not start with %PDF-).", { field });
  }
}
