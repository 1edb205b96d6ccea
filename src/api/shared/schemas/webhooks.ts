/** The webhook schemas: the API routes (api/shared/webhooks, events) and the portal's register form read the same definitions. */
import { z } from "@hono/zod-openapi";
import { PING_EVENT } from "../../../domain/webhooks/ping";
import { eventsOf, otherApi, type WebhookApi } from "../../../domain/webhooks/subscriptions";
import { ListLimit, PlainText, Timestamp } from "./common";

const EventName = (api: WebhookApi) =>
  z
    .string()
    .max(100)
    .superRefine((name, ctx) => {
      if (eventsOf(api).includes(name)) return;
      const other = eventsOf(otherApi(api)).includes(name);
      ctx.addIssue({
        code: "custom",
        message: other
          ? `${name} is a ${otherApi(api)} API event; ${api} endpoints subscribe to: ${eventsOf(api).join(", ")}`
          : name === PING_EVENT
            ? `${PING_EVENT} is not subscribed to: POST /webhooks/{id}/test sends it to any endpoint; subscribe to: ${eventsOf(api).join(", ")}`
            : `unknown event ${name}; one of: ${eventsOf(api).join(", ")}`,
      });
    })
    .openapi({ type: "string", enum: [...eventsOf(api)] });

const PayloadModeInput = z.enum(["full", "reference"]).openapi({
  description: "`full`: `data` is the complete subject plus the event's own detail. `reference`: the reference and the event's own fields.",
});

const Url = z.string().max(2048).openapi({ format: "uri", example: "https://hooks.example.com/rfs", description: "https on a public host." });

/** The most a description holds, after the trim. */
export const DESCRIPTION_MAX = 200;

/**
 * A person's label for an endpoint ("Production CRM"): plain text on one line, trimmed, at most 200
 * characters, no control or text-direction characters (400 `invalid_request` naming `description`).
 * Empty after the trim, or null, means none (and clears it on PATCH).
 */
const DescriptionInput = PlainText(DESCRIPTION_MAX)
  .nullable()
  .optional()
  .openapi({
    example: "Production CRM",
    description: `A label for people, at most ${DESCRIPTION_MAX} characters of plain text on one line (trimmed). \`null\` or \`""\` means none.`,
  });

export const WebhookEndpoint = (api: WebhookApi) =>
  z
    .object({
      id: z.string().openapi({ example: "whe_3k9x0c2m4p7q1r8s5t6u0v2w" }),
      url: z.string(),
      description: z.string().nullable().openapi({ example: "Production CRM", description: "A label for people; null when none was given." }),
      events: z.array(z.string()),
      active: z.boolean(),
      created_at: Timestamp,
      last_success_at: Timestamp.nullable(),
      last_failure_at: Timestamp.nullable(),
      failure_count: z.number().int().openapi({ description: "Failed attempts since the last success." }),
      payload: z.enum(["full", "reference"]),
      environment: z.enum(["sandbox", "live"]),
      host: z.enum(["sandbox", "production"]).openapi({ description: "Where it was registered; a sandbox-host endpoint receives sandbox and test events only." }),
      deactivated_reason: z.enum(["gone", "exhausted", "manual"]).nullable(),
      secret: z.string().optional().openapi({ description: "`whsec_…`; returned only on registration and rotation." }),
    })
    .openapi(api === "partner" ? "PartnerWebhookEndpoint" : "LenderWebhookEndpoint");

export const Attempt = z.object({
  attempt_number: z.number().int().nullable().openapi({ description: "1 to 6 for automatic attempts; null for a manual re-send." }),
  trigger: z.enum(["automatic", "manual"]),
  attempted_at: Timestamp,
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  response_body: z.string().nullable().openapi({
    description: "The start of the receiver's answer: its first 2 KB decoded as UTF-8, control characters dropped; null when no answer (or an empty one) came.",
  }),
  duration_ms: z.number().int(),
});

export const WebhookDelivery = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event: z.string(),
    payload: z.enum(["full", "reference"]),
    state: z.enum(["pending", "succeeded", "exhausted", "cancelled"]),
    attempt_count: z.number().int(),
    next_attempt_at: Timestamp.nullable(),
    last_status_code: z.number().int().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    attempts: z.array(Attempt),
  })
  .openapi("WebhookDelivery");

export const IdParam = z.object({ id: z.string().max(64).openapi({ param: { name: "id", in: "path" } }) });
export const DeliveryParams = IdParam.extend({ delivery_id: z.string().max(64).openapi({ param: { name: "delivery_id", in: "path" } }) });
export const PageQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: ListLimit,
});

/** A registration's body: the API's and the portal's register form's one definition. */
export const webhookRegistration = (api: WebhookApi) =>
  z
    .strictObject({
      url: Url,
      events: z.array(EventName(api)).min(1, "choose at least one event").max(50).optional().openapi({ description: "Default: every event of this API." }),
      payload: PayloadModeInput.default("full"),
      description: DescriptionInput,
    })
    .openapi(api === "partner" ? "PartnerWebhookRegistration" : "LenderWebhookRegistration");

/** A change's body (`PATCH /webhooks/{id}`): the API's and the portal's edit form's one definition. */
export const webhookChanges = (api: WebhookApi) =>
  z
    .strictObject({
      url: Url.optional(),
      events: z.array(EventName(api)).min(1, "choose at least one event").max(50).optional(),
      payload: PayloadModeInput.optional(),
      description: DescriptionInput,
      active: z.boolean().optional().openapi({ description: "true reactivates a deactivated endpoint and resets its counters." }),
    })
    .openapi(api === "partner" ? "PartnerWebhookChanges" : "LenderWebhookChanges");

/** The query of `GET /events`: a page, filtered by event name and subject. The portal's events page reads it too. */
export const EventsQuery = (api: WebhookApi) =>
  PageQuery.extend({
    event: z.enum(eventsOf(api) as [string, ...string[]]).optional(),
    subject: z.string().max(100).optional().openapi({ description: api === "lender" ? "A deal reference (case-insensitive) or referral id." : "A lead id, or the lead's reference (`RF-…`, case-insensitive); a reference that is no lead of yours matches nothing." }),
  });
