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
 * `full` subjects are read with the event's own scope (its organisation and
 * environment), exactly as the GET of that API answers. A subject that no
 * longer exists (a deleted test deal) falls back to its reference.
 */
import type { EventRow } from "../../db/webhooks/events";
import type { Scope } from "../../domain/identity/caller";
import type { PayloadMode } from "../../domain/webhooks/subscriptions";
import { loadDealView } from "../deals/reads";
import { findLeadView } from "../leads/presentation";
import { withFileLinks } from "../documents/requests";
import { findReferral } from "../deals/referrals";
import type { ViewContext } from "../views/view-context";

/** The envelope's api_version: the payload shape of the specification's 2026-09 release. */
export const WEBHOOK_API_VERSION = "2026-09";

type Data = Record<string, unknown>;

/** Views are built as the GETs build them; the dispatcher's links are signed to outlive the retry schedule. */
export type PayloadContext = ViewContext;

/** What a `reference` payload always carries for each subject type. */
function referenceOf(event: EventRow): Data {
  switch (event.subjectType) {
    case "deal":
      // `ref` is the deal object's own name for it, so one key finds the deal in both modes.
      return { reference: event.subjectId, ref: event.subjectId, test: event.test };
    case "lead":
      return { lead_id: event.subjectId };
    case "referral":
      return { referral_id: event.subjectId };
  }
}

const scopeOfEvent = (event: EventRow): Scope => ({ organisationId: event.organisationId, environment: event.environment });

/** Exactly what GET /v1/deals/{ref} returns to the lender the event is for. */
async function fullDeal(ctx: PayloadContext, event: EventRow): Promise<Data> {
  return (await loadDealView(ctx, scopeOfEvent(event), event.subjectId)) ?? referenceOf(event);
}

/** Exactly what GET /partner/v1/leads/{id} returns to the partner the event is for. */
async function fullLead(ctx: PayloadContext, event: EventRow): Promise<Data> {
  const lead = await findLeadView(ctx, scopeOfEvent(event), event.subjectId);
  return lead ? { ...lead, ...referenceOf(event) } : referenceOf(event);
}

/** The referral item of GET /v1/referrals. */
async function fullReferral(ctx: PayloadContext, event: EventRow): Promise<Data> {
  return { ...((await findReferral(ctx, scopeOfEvent(event), event.subjectId)) ?? {}), ...referenceOf(event) };
}

const FULL_VIEWS: Record<EventRow["subjectType"], (ctx: PayloadContext, event: EventRow) => Promise<Data>> = {
  deal: fullDeal,
  lead: fullLead,
  referral: fullReferral,
};

export async function eventData(ctx: PayloadContext, event: EventRow, mode: PayloadMode): Promise<Data> {
  const subject = mode === "full" ? await FULL_VIEWS[event.subjectType](ctx, event) : referenceOf(event);
  return { ...subject, ...(await detailWithLinks(ctx, event)), payload_mode: mode };
}

/** Stored details hold no links (they would expire in the outbox); a request's files get fresh signed ones here. */
async function detailWithLinks(ctx: PayloadContext, event: EventRow): Promise<Data> {
  const detail = event.detail as Data;
  if (!("request" in detail)) return detail;
  return { ...detail, request: await withFileLinks(ctx, detail.request) };
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
