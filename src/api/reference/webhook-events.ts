/**
 * The webhook events of both APIs as OpenAPI 3.1 `webhooks`: one entry per
 * event, its body in both payload modes (`full`: the subject as its GET answers
 * plus the event's detail; `reference`: the subject's reference plus the
 * detail), built from the same zod schemas the API's responses use. The list
 * of events is the reference list in src/domain/reference/values.ts.
 */
import { z } from "@hono/zod-openapi";
import { LENDER_EVENTS, PARTNER_EVENTS } from "../../domain/reference/values";
import { Completion, Deal, DealDeclineReason, DealOffer } from "../shared/schemas/deal";
import type { Router } from "../router";
import { Timestamp } from "../shared/schemas/common";
import { PartnerDocument } from "../shared/schemas/document";
import { CommissionEntry } from "../shared/schemas/commission";
import { Lead, LeadOutcome, PartnerOffer } from "../shared/schemas/lead";
import { ConsentReceipt } from "../shared/schemas/consent";
import { ApplicationLinkEventDetail } from "../shared/schemas/application-link";
import { CONSENT_WITHDRAWAL_CHANNELS, type ConsentWithdrawalChannel } from "../../domain/leads/consent";
import { WEBHOOK_API_VERSION } from "../../services/webhooks/payloads";

type Shape = z.ZodRawShape;

const LeadState = z.string().openapi({ description: "The lead's state once the write that fired the event committed." });
const leadDetail = (extra: Shape = {}): Shape => ({ reference: z.string().openapi({ example: "RF-7K3M9Q" }), state: LeadState, ...extra });
const matched = { matched_options: z.number().int() };

/** The event's own detail in `data`, per event (docs/webhooks.md, "Events"). */
const PARTNER_DETAIL: Record<(typeof PARTNER_EVENTS)[number]["value"], Shape> = {
  "lead.submitted": leadDetail(matched),
  "lead.matched": leadDetail(matched),
  "lead.out_of_scope": leadDetail({
    ...matched,
    reasons: z
      .array(z.object({ code: z.string(), detail: z.string() }))
      .optional()
      .openapi({ description: "The lead's `out_of_scope_reasons` (e.g. `already_introduced`, `company_not_active`); on events written before reasons were added, absent." }),
  }),
  "lead.offers_available": leadDetail(),
  "lead.offer_accepted": leadDetail({ offer: PartnerOffer }),
  "lead.offer_declined": leadDetail({
    offer: PartnerOffer,
    all_offers_declined: z.boolean().openapi({ description: "True when every current offer on the lead is now declined." }),
  }),
  "lead.funded": leadDetail({ funding_outcome: z.object({ funded_at: Timestamp.nullable(), funded_amount: z.number().nullable() }) }),
  "lead.declined": leadDetail({ outcomes: z.array(LeadOutcome).openapi({ description: "Every routed option's outcome, as the lead's `outcomes` (empty for a simulated sandbox decline)." }) }),
  "lead.consent_captured": leadDetail({ receipt: ConsentReceipt.openapi({ description: "The receipt the consent wrote, as the lead's `consent.receipt`." }) }),
  "lead.consent_withdrawn": leadDetail({
    withdrawn_at: Timestamp,
    withdrawn_via: z
      .enum(CONSENT_WITHDRAWAL_CHANNELS as [ConsentWithdrawalChannel, ...ConsentWithdrawalChannel[]])
      .openapi({ description: "Where the business withdrew: `application_link` (the link's done page) or `client_hub` (its hub, before submission)." }),
  }),
  "lead.application_opened": leadDetail({ link: ApplicationLinkEventDetail }),
  "lead.application_completed": leadDetail({
    link: ApplicationLinkEventDetail,
    submit: z.enum(["auto", "review"]).openapi({ description: "`auto`: the lead was submitted at once (its own events follow); `review`: it waits, ready, for the partner's submit." }),
  }),
  "document.accepted": { reference: z.string(), document: PartnerDocument },
  "document.rejected": { reference: z.string(), document: PartnerDocument },
  "document.removed": { reference: z.string(), document: PartnerDocument.openapi({ description: "The document as it was listed before it was removed (always a rejected one)." }) },
  "commission.accrued": { reference: z.string().nullable(), commission: CommissionEntry },
  "commission.paid": { reference: z.string().nullable(), commission: CommissionEntry },
  "commission.clawed_back": { reference: z.string().nullable(), commission: CommissionEntry },
};

const RequestFile = z.object({
  id: z.string(),
  document_type: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  url: z.string().openapi({ description: "Signed download link, valid 24 hours from when the body was built." }),
});

const LENDER_DETAIL: Record<(typeof LENDER_EVENTS)[number]["value"], Shape> = {
  "deal.created": {},
  "deal.updated": {
    update: z.object({
      status: z.string(),
      reason: z.string().nullable(),
      funded_amount: z.number().nullable(),
      reasons: z.array(DealDeclineReason).optional().openapi({ description: "With `declined` only: the coded reasons, as the deal's `decline_reasons`." }),
    }),
  },
  "offer.accepted": { offer: DealOffer },
  "offer.declined": { offer: DealOffer },
  "message.created": {
    message: z.object({ id: z.string(), direction: z.string(), from_email: z.string().nullable(), subject: z.string().nullable(), body: z.string(), created_at: Timestamp }),
  },
  "request.fulfilled": {
    request: z
      .object({ id: z.string(), item_type: z.string(), label: z.string(), file_count: z.number().int(), uploaded_at: Timestamp.nullable(), files: z.array(RequestFile) })
      .openapi({ description: "The document request (in `full` bodies it takes the place of the deal's funding `request`)." }),
  },
  "document.removed": {
    document: RequestFile.omit({ url: true })
      .extend({ uploaded_at: Timestamp, source: z.literal("client_upload"), request_id: z.string(), formula_cells: z.boolean() })
      .openapi({ description: "The file as the deal listed it; it is deleted, so there is no link." }),
    document_request: z
      .object({ id: z.string(), item_type: z.string(), label: z.string(), status: z.string(), file_count: z.number().int() })
      .openapi({ description: "The document request as it now stands: with no file left it is `requested` again." }),
  },
  "deal.account_submitted": { completion: Completion },
  "deal.agreement_signed": { completion: Completion },
};

const pascal = (event: string) => event.split(/[._]/).map((w) => w[0].toUpperCase() + w.slice(1)).join("");

function envelope(event: string, full: z.ZodType, reference: z.ZodType) {
  return z
    .object({
      id: z.string().openapi({ description: "The event id: the same on every attempt and every endpoint. Dedupe on it.", example: "evt_5n2k8c0x1m3p9q7r4s6t0u2v" }),
      event: z.literal(event),
      created_at: Timestamp,
      environment: z.enum(["sandbox", "live"]),
      livemode: z.boolean(),
      api_version: z.literal(WEBHOOK_API_VERSION),
      data: z.union([full, reference]).openapi({ description: "`full` or `reference`, as the endpoint's `payload` chose; `data.payload_mode` says which (and equals the `X-Service-Payload` header)." }),
    })
    .openapi(`${pascal(event)}Event`);
}

const HEADERS = z.object({
  "X-Service-Event": z.string().openapi({ description: "The event name." }),
  "X-Service-Delivery": z.string().openapi({ description: "The delivery id (`whd_…`), the same on every retry." }),
  "X-Service-Payload": z.enum(["full", "reference"]),
  "X-Service-Signature-256": z.string().openapi({ description: "`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `<t>.<body>` (Stripe's scheme); one `v1` per active secret." }),
  "X-Service-Signature": z.string().openapi({ description: "`sha256=<hex>` of the body alone (the specification's header; no replay protection)." }),
  "webhook-id": z.string().openapi({ description: "Standard Webhooks: the event id." }),
  "webhook-timestamp": z.string(),
  "webhook-signature": z.string().openapi({ description: "Standard Webhooks: `v1,<base64>`." }),
});

function register(router: Router, events: readonly { value: string; label: string }[], detail: Record<string, Shape>, subject: "lead" | "deal") {
  for (const { value: event, label } of events) {
    const name = pascal(event);
    const own = detail[event];
    // A detail that takes the place of a subject field (request.fulfilled's `request`) replaces it: extending
    // the registered schema would be rendered as allOf [subject, detail], which no body can satisfy.
    const replacedIn = (shape: Shape) => Object.fromEntries(Object.keys(own).filter((key) => key in shape).map((key) => [key, true as const]));
    const without = <T extends z.ZodObject>(schema: T) => (Object.keys(replacedIn(schema.shape)).length ? schema.omit(replacedIn(schema.shape) as never) : schema);
    const full =
      subject === "deal"
        ? without(Deal).extend({ ...own, payload_mode: z.literal("full") })
        : without(Lead).extend({ lead_id: z.string(), ...own, payload_mode: z.literal("full") });
    const reference =
      subject === "deal"
        ? z.object({ reference: z.string(), ref: z.string(), test: z.boolean(), ...own, payload_mode: z.literal("reference") })
        : z.object({ lead_id: z.string(), ...own, payload_mode: z.literal("reference") });
    router.openAPIRegistry.registerWebhook({
      method: "post",
      path: event,
      summary: label,
      description:
        "Delivered as a signed JSON POST to every active endpoint subscribed to the event. Verify the signature over the raw body before parsing; answer 2xx within 5 seconds. The guide: [Webhooks](/docs/guides/webhooks) (`docs/webhooks.md`).",
      tags: ["Webhook events"],
      request: {
        headers: HEADERS,
        body: {
          required: true,
          content: { "application/json": { schema: envelope(event, full.openapi(`${name}Full`), reference.openapi(`${name}Reference`)) } },
        },
      },
      responses: {
        200: { description: "Any 2xx acknowledges the delivery. 410 Gone deactivates the endpoint; anything else is retried (about 1 min, 5 min, 30 min, 2 h, 12 h)." },
      },
    });
  }
}

export const registerPartnerWebhookEvents = (router: Router) => register(router, PARTNER_EVENTS, PARTNER_DETAIL, "lead");
export const registerLenderWebhookEvents = (router: Router) => register(router, LENDER_EVENTS, LENDER_DETAIL, "deal");
