/**
 * The webhook events as types: the envelope every delivery carries and, per
 * event, what `data` holds in each payload mode (docs/webhooks.md, built by the
 * service in src/services/webhooks/payloads.ts). The event names come from the
 * generated OpenAPI types (the `events` a registration accepts), so an event
 * added to the service and regenerated without a detail here fails to compile.
 *
 *   full:      the subject as its GET returns it + the event's own detail + payload_mode
 *   reference: the subject's reference + the event's own detail + payload_mode
 *
 * Narrow with `event.event` (the name), then `event.data.payload_mode`.
 */
import type { components as LenderComponents } from "../generated/lender.js";
import type { components as PartnerComponents } from "../generated/partner.js";

type P = PartnerComponents["schemas"];
type L = LenderComponents["schemas"];

export type PartnerEventName = NonNullable<P["PartnerWebhookRegistration"]["events"]>[number];
export type LenderEventName = NonNullable<L["LenderWebhookRegistration"]["events"]>[number];
/** Sent by `POST …/webhooks/{id}/test` whatever the endpoint subscribes to; never subscribable. */
export type PingEventName = "ping";

type LeadState = P["Lead"]["state"];

/** Every lead event carries the lead's reference and its state once the write that fired it committed. */
interface LeadDetail {
  reference: string | null;
  state: LeadState;
}

interface DocumentDetail {
  reference: string | null;
  document: Pick<P["PartnerDocument"], "id" | "document_type" | "filename" | "byte_size" | "state" | "reason"> & { received_at: string };
}

/** Each partner event's own fields in `data`, in both payload modes. */
export interface PartnerEventDetails {
  "lead.submitted": LeadDetail & { matched_options: number };
  "lead.matched": LeadDetail & { matched_options: number };
  "lead.out_of_scope": LeadDetail & { matched_options: number };
  "lead.offers_available": LeadDetail;
  "lead.offer_accepted": LeadDetail & { offer: P["PartnerOffer"] };
  /** The business declined an offer; the lead's state does not move. */
  "lead.offer_declined": LeadDetail & { offer: P["PartnerOffer"]; all_offers_declined: boolean };
  "lead.funded": LeadDetail & { funding_outcome: { funded_at: string; funded_amount: number | null } };
  /** Every routed option's anonymised outcome (no provider; a lender's note only when shared). */
  "lead.declined": LeadDetail & { outcomes: P["LeadOutcome"][] };
  /** A consent receipt was written (the business agreed through the application link, or the partner declared a text version). */
  "lead.consent_captured": LeadDetail & { receipt: P["ConsentReceipt"] };
  /** The business withdrew its consent before submission; submit answers 422 `consent_required`. */
  "lead.consent_withdrawn": LeadDetail & { withdrawn_at: string };
  /** The business opened its application link for the first time (never the token). */
  "lead.application_opened": LeadDetail & { link: { id: string; expires_at: string } };
  /** The business agreed and sent its application through the link. */
  "lead.application_completed": LeadDetail & { link: { id: string; expires_at: string }; submit: "auto" | "review" };
  "document.accepted": DocumentDetail;
  "document.rejected": DocumentDetail;
  /** The partner removed a rejected document; `document` is as it was listed. No lender ever saw it. */
  "document.removed": DocumentDetail;
  /** The introducer's commission ledger gained an entry (docs/commission.md); never names the provider. */
  "commission.accrued": CommissionDetail;
  "commission.paid": CommissionDetail;
  "commission.clawed_back": CommissionDetail;
}

interface CommissionDetail {
  reference: string | null;
  commission: P["CommissionEntry"];
}

/** A file of a fulfilled document request, with a signed download link valid 24 hours. */
export interface FulfilledRequestFile {
  id: string;
  document_type: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  url: string;
}

/** Each lender event's own fields in `data`, in both payload modes. */
export interface LenderEventDetails {
  "deal.created": Record<never, never>;
  "deal.updated": { update: { status: string; reason: string | null; funded_amount: number | null; reasons?: L["DealDeclineReason"][] } };
  "offer.accepted": { offer: L["DealOffer"] };
  "offer.declined": { offer: L["DealOffer"] };
  "message.created": {
    message: { id: string; direction: "borrower_to_lender"; from_email: string | null; subject: string | null; body: string; created_at: string };
  };
  /** `request` here is the document request, not the deal's funding request. */
  "request.fulfilled": {
    request: { id: string; item_type: string; label: string; file_count: number; uploaded_at: string | null; files: FulfilledRequestFile[] };
  };
  /** The client took back a file it had sent on a document request; with none left the request is `requested` again. */
  "document.removed": {
    document: Omit<FulfilledRequestFile, "url"> & { uploaded_at: string; source: "client_upload"; request_id: string; formula_cells: boolean };
    document_request: { id: string; item_type: string; label: string; status: string; file_count: number };
  };
  "deal.account_submitted": { completion: L["Completion"] };
  "deal.agreement_signed": { completion: L["Completion"] };
}

// Compile-time: every event the service accepts in a registration has its detail above.
type Covers<Names extends string, Details> = [Exclude<Names, keyof Details>] extends [never] ? true : never;
const partnerEventsCovered: Covers<PartnerEventName, PartnerEventDetails> = true;
const lenderEventsCovered: Covers<LenderEventName, LenderEventDetails> = true;

interface Envelope<Name extends string, Data> {
  /** The event id (`evt_…`): the same on every attempt and every endpoint; dedupe on it. */
  id: string;
  event: Name;
  created_at: string;
  environment: "sandbox" | "live";
  livemode: boolean;
  /** The payload shape's release, `2026-09`. */
  api_version: string;
  data: Data;
}

/** A lead as `GET /partner/v1/leads/{id}` returns it, plus `lead_id`. */
export type LeadSubject = P["Lead"] & { lead_id: string };
export interface LeadReference {
  lead_id: string;
}

/** A deal as `GET /v1/deals/{ref}` returns it. */
export type DealSubject = L["Deal"];
/** A deal's reference payload; also what a `full` delivery carries for a test deal deleted before dispatch. */
export interface DealReference {
  reference: string;
  ref: string;
  test: boolean;
}

export type PartnerWebhookEvent = {
  [Name in PartnerEventName]: Envelope<
    Name,
    | (LeadSubject & PartnerEventDetails[Name] & { payload_mode: "full" })
    | (LeadReference & PartnerEventDetails[Name] & { payload_mode: "reference" })
  >;
}[PartnerEventName];

export type LenderWebhookEvent = {
  [Name in LenderEventName]: Envelope<
    Name,
    | ((DealSubject | DealReference) & LenderEventDetails[Name] & { payload_mode: "full" })
    | (DealReference & LenderEventDetails[Name] & { payload_mode: "reference" })
  >;
}[LenderEventName];

/** The test event of `POST …/webhooks/{id}/test`: the same envelope, `data` describes the endpoint. */
export type PingEvent = Envelope<
  PingEventName,
  { endpoint_id: string; url: string; events: string[]; message: string; payload_mode: "full" | "reference" }
>;

export type WebhookEvent = PartnerWebhookEvent | LenderWebhookEvent | PingEvent;
export type WebhookEventName = WebhookEvent["event"];
