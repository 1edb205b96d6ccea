import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { DealSubject } from "../../domain/deals/types";
import type { DeclineReason } from "../../domain/deals/decline";

export type { DealSubject };

/**
 * What routing decided for a submitted lead, one row per lead (sandbox and
 * live, matched or not). `last_change` is a random token written by every
 * winning conditional update: the statements that follow it in the same batch
 * are guarded on it, so a losing racer writes nothing.
 */
export const leadRouting = sqliteTable("lead_routing", {
  leadId: text("lead_id").primaryKey(),
  partnerOrganisationId: text("partner_organisation_id").notNull(),
  environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
  /** The matcher's reasons (`{code, detail}`), kept for out-of-scope leads and shown to the partner. */
  reasons: text("reasons", { mode: "json" }).$type<{ code: string; detail: string }[]>().notNull(),
  offersPresentedAt: text("offers_presented_at"),
  acceptedOfferId: text("accepted_offer_id"),
  acceptedAt: text("accepted_at"),
  /** `funded` or `declined` once the lead reached an outcome. */
  outcome: text("outcome"),
  outcomeAt: text("outcome_at"),
  fundedAmount: real("funded_amount"),
  lastChange: text("last_change").notNull(),
  createdAt: text("created_at").notNull(),
});

/** A lead routed to one lender (or a lender's own test deal). */
export const deals = sqliteTable(
  "deals",
  {
    /** Upper-case `DL-XXXXXXXX`; lookups upper-case the path value. */
    ref: text("ref").primaryKey(),
    lenderOrganisationId: text("lender_organisation_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** Null for test deals, which no lead stands behind. */
    leadId: text("lead_id"),
    partnerOrganisationId: text("partner_organisation_id"),
    test: integer("test", { mode: "boolean" }).notNull().default(false),
    /** Panel product ids of this lender that matched. */
    productIds: text("product_ids", { mode: "json" }).$type<string[]>().notNull(),
    subject: text("subject", { mode: "json" }).$type<DealSubject>().notNull(),
    /** The deal's own life cycle: submitted, offer_accepted, funded, declined, closed. */
    status: text("status").notNull(),
    lenderStatus: text("lender_status").notNull(),
    statusReason: text("status_reason"),
    /** Why the lender declined, as codes; null until declined. */
    declineReasons: text("decline_reasons", { mode: "json" }).$type<DeclineReason[]>(),
    /** The product family the deal was routed for (its first matched product's); the partner's outcomes name it. Null for test deals. */
    productFamily: text("product_family"),
    fundedAmount: real("funded_amount"),
    /** The lender's report that the funded deal ended early: `settled_early` or `defaulted` (migration 0028); lender_status stays `funded`. */
    repaymentOutcome: text("repayment_outcome"),
    repaymentOutcomeAt: text("repayment_outcome_at"),
    accountSubmittedAt: text("account_submitted_at"),
    accountSummary: text("account_summary"),
    /** The lender's member working the deal (issue 45 item 5); portal only, never in a view of the API. */
    assigneeMemberId: text("assignee_member_id"),
    /** The payout account in full, AES-GCM sealed (services/deals/payout-account.ts); read only for a lender admin's reveal. */
    accountSealed: text("account_sealed"),
    agreementUploadedAt: text("agreement_uploaded_at"),
    agreementKey: text("agreement_key"),
    signedAt: text("signed_at"),
    signatureVerification: text("signature_verification"),
    /** Set when a test deal is deleted; deleted test deals are gone for every read. */
    deletedAt: text("deleted_at"),
    lastChange: text("last_change").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("deals_lender_created").on(t.lenderOrganisationId, t.environment, t.createdAt),
    index("deals_lender_status_created").on(t.lenderOrganisationId, t.environment, t.lenderStatus, t.createdAt),
    index("deals_lead").on(t.leadId, t.createdAt).where(sql`${t.leadId} is not null`),
    index("deals_agreement_key").on(t.agreementKey),
  ],
);

/**
 * Offers on a lead: a lender's own (on a deal) or simulated sandbox offers
 * (no deal). The lender that made an offer is held here and never shown to
 * the partner.
 */
export const offers = sqliteTable(
  "offers",
  {
    id: text("id").primaryKey(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** Null only for a test deal's offers. */
    leadId: text("lead_id"),
    /** Null for simulated sandbox offers. */
    dealRef: text("deal_ref"),
    lenderOrganisationId: text("lender_organisation_id").notNull(),
    /** Structural label shown to the partner (product label or product family), never a lender's name. */
    label: text("label").notNull(),
    maturity: text("maturity", { enum: ["indicative", "firm"] }).notNull(),
    kind: text("kind").notNull(),
    amount: real("amount").notNull(),
    currency: text("currency").notNull(),
    annualRatePct: real("annual_rate_pct"),
    factorRate: real("factor_rate"),
    termMonths: integer("term_months"),
    fees: real("fees"),
    totalRepayment: real("total_repayment"),
    expiresAt: text("expires_at"),
    notes: text("notes"),
    /** presented, accepted, closed (another offer was accepted or the lead ended), declined (by the business). */
    state: text("state").notNull(),
    /** The business's code when it declined the offer (`offer-decline-reasons`), and when. */
    declinedReason: text("declined_reason"),
    declinedAt: text("declined_at"),
    superseded: integer("superseded", { mode: "boolean" }).notNull().default(false),
    supersededAt: text("superseded_at"),
    supersededBy: text("superseded_by"),
    simulated: integer("simulated", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("offers_lead").on(t.leadId, t.createdAt), index("offers_deal").on(t.dealRef, t.createdAt)],
);

export const dealMessages = sqliteTable(
  "deal_messages",
  {
    id: text("id").primaryKey(),
    dealRef: text("deal_ref").notNull(),
    direction: text("direction", { enum: ["lender_to_borrower", "borrower_to_lender"] }).notNull(),
    body: text("body").notNull(),
    /** The client's replies from the hub carry a subject (optional) and the lead's contact email; lender messages leave both null. */
    subject: text("subject"),
    fromEmail: text("from_email"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("deal_messages_deal").on(t.dealRef, t.createdAt, t.id)],
);

export type DealRow = typeof deals.$inferSelect;
export type OfferRow = typeof offers.$inferSelect;
export type LeadRoutingRow = typeof leadRouting.$inferSelect;
export type DealMessageRow = typeof dealMessages.$inferSelect;

/** A lender's internal note on a deal (issue 45 item 5): read only by the lender's members, in the portal. */
export const dealNotes = sqliteTable(
  "deal_notes",
  {
    id: text("id").primaryKey(),
    dealRef: text("deal_ref").notNull(),
    lenderOrganisationId: text("lender_organisation_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    memberId: text("member_id").notNull(),
    body: text("body").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("deal_notes_deal").on(t.lenderOrganisationId, t.environment, t.dealRef, t.createdAt)],
);
