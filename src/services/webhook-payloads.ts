/**
 * The one module that builds what a webhook carries in `data`, per subject type.
 *
 *   full:      the complete subject object + the event's own detail + payload_mode
 *   reference: the subject's reference + the event's own detail + payload_mode
 *
 * The event row's `detail` is already keyed by the event's own name for it
 * (`{update: {...}}`, `{message: {...}}`, `{offer: {...}}`, `{completion: {...}}`,
 * `{request: {...}}`), so it is spread beside the subject as is.
 *
 * LEAD ENGINEER, TO WIRE: the deal and lead views do not exist on this branch.
 * `fullDeal` must return exactly what GET /v1/deals/{ref} returns and `fullLead`
 * what GET /partner/v1/leads/{id} returns (read with the event's scope). Until
 * then they are honest placeholders built only from the event row: the
 * reference fields plus `view: "event_only"`, so nobody mistakes them for the
 * full object.
 */
import type { Database } from "../db/client";
import type { EventRow } from "../db/events";
import type { PayloadMode } from "../domain/webhooks/subscriptions";

/** The envelope's api_version: the payload shape of the specification's 2026-09 release. */
export const WEBHOOK_API_VERSION = "2026-09";

type Data = Record<string, unknown>;

export interface PayloadContext {
  db: Database;
}

/** What a `reference` payload always carries for each subject type. */
function referenceOf(event: EventRow): Data {
  switch (event.subjectType) {
    case "deal":
      return { reference: event.subjectId, test: event.test };
    case "lead":
      return { lead_id: event.subjectId };
    case "referral":
      return { referral_id: event.subjectId };
  }
}

// TODO(lead engineer): replace with the GET /v1/deals/{ref} view (scope: event.organisationId + event.environment).
async function fullDeal(_ctx: PayloadContext, event: EventRow): Promise<Data> {
  return { ...referenceOf(event), view: "event_only" };
}

// TODO(lead engineer): replace with the GET /partner/v1/leads/{id} view (scope: event.organisationId + event.environment).
async function fullLead(_ctx: PayloadContext, event: EventRow): Promise<Data> {
  return { id: event.subjectId, ...referenceOf(event), view: "event_only" };
}

// TODO(lead engineer): replace with the referral item of GET /v1/referrals.
async function fullReferral(_ctx: PayloadContext, event: EventRow): Promise<Data> {
  return { id: event.subjectId, ...referenceOf(event), view: "event_only" };
}

const FULL_VIEWS: Record<EventRow["subjectType"], (ctx: PayloadContext, event: EventRow) => Promise<Data>> = {
  deal: fullDeal,
  lead: fullLead,
  referral: fullReferral,
};

export async function eventData(ctx: PayloadContext, event: EventRow, mode: PayloadMode): Promise<Data> {
  const subject = mode === "full" ? await FULL_VIEWS[event.subjectType](ctx, event) : referenceOf(event);
  return { ...subject, ...event.detail, payload_mode: mode };
}

/** The envelope every delivery of the event carries; `id` is the event id, stable across retries. */
export async function eventEnvelope(ctx: PayloadContext, event: EventRow, mode: PayloadMode) {
  return {
    id: event.id,
    event: event.event,
    created_at: event.createdAt,
    environment: event.environment,
    livemode: event.environment === "live",
    api_version: WEBHOOK_API_VERSION,
    data: await eventData(ctx, event, mode),
  };
}

/** Serialised once per event and mode; deliveries store these exact bytes. */
export async function serialisedBody(ctx: PayloadContext, event: EventRow, mode: PayloadMode) {
  return JSON.stringify(await eventEnvelope(ctx, event, mode));
}
