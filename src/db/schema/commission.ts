import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The introducer's commission (issue 43, migration 0028_commission, docs/commission.md).
 *
 * Terms: one row per change, never updated, so the terms in force at any moment can be read back
 * (a funded deal is priced by the row in force when its offer was accepted). `partnerOrganisationId`
 * is `""` for the product's default. Money columns are integer minor units of `currency`.
 */
export const commissionTerms = sqliteTable(
  "commission_terms",
  {
    id: text("id").primaryKey(),
    lenderOrganisationId: text("lender_organisation_id").notNull(),
    productId: text("product_id").notNull(),
    partnerOrganisationId: text("partner_organisation_id").notNull(),
    currency: text("currency").notNull(),
    basis: text("basis", { enum: ["percentage", "flat"] }).notNull(),
    rateBps: integer("rate_bps"),
    flatAmount: integer("flat_amount"),
    minAmount: integer("min_amount"),
    maxAmount: integer("max_amount"),
    clawbackDays: integer("clawback_days").notNull(),
    effectiveAt: text("effective_at").notNull(),
  },
  (t) => [index("commission_terms_key_effective").on(t.lenderOrganisationId, t.productId, t.partnerOrganisationId, t.currency, t.effectiveAt)],
);

/**
 * The ledger: append-only (triggers refuse UPDATE and DELETE), integer minor units. `amount` moves what
 * is outstanding on the deal, owed by the lender to the introducer: `accrued` +, `paid` −, `clawed_back` −.
 * Scoped by `environment` in every read: the sandbox ledger and the live one never mix.
 */
export const commissionEntries = sqliteTable(
  "commission_entries",
  {
    id: text("id").primaryKey(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    kind: text("kind", { enum: ["accrued", "paid", "clawed_back"] }).notNull(),
    partnerOrganisationId: text("partner_organisation_id").notNull(),
    lenderOrganisationId: text("lender_organisation_id").notNull(),
    leadId: text("lead_id").notNull(),
    /** Null for a simulated sandbox funding, which no deal stands behind. */
    dealRef: text("deal_ref"),
    productId: text("product_id").notNull(),
    productFamily: text("product_family"),
    /** The accrued entry a `paid` or `clawed_back` entry follows; null on the accrued entry itself. */
    accruedEntryId: text("accrued_entry_id"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    /** The funded amount in minor units, on every entry of the deal (the statement shows it). */
    fundedAmount: integer("funded_amount"),
    /** The terms the accrual was priced by, copied so later changes never reach it. */
    termsId: text("terms_id").notNull(),
    basis: text("basis", { enum: ["percentage", "flat"] }).notNull(),
    rateBps: integer("rate_bps"),
    clawbackDays: integer("clawback_days").notNull(),
    paymentReference: text("payment_reference"),
    /** Why a clawback: `settled_early` or `defaulted`. */
    reason: text("reason"),
    /** `YYYY-MM` (UTC) of `created_at`: the statement the entry belongs to. */
    month: text("month").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("commission_entries_one_accrual").on(t.environment, t.leadId).where(sql`kind = 'accrued'`),
    uniqueIndex("commission_entries_one_follow_up").on(t.accruedEntryId, t.kind).where(sql`accrued_entry_id is not null`),
    index("commission_entries_partner_created").on(t.partnerOrganisationId, t.environment, t.createdAt),
    index("commission_entries_partner_month").on(t.partnerOrganisationId, t.environment, t.month, t.createdAt),
    index("commission_entries_lender_created").on(t.lenderOrganisationId, t.environment, t.createdAt),
    index("commission_entries_environment_month").on(t.environment, t.month, t.createdAt),
  ],
);

/** Every time the business was shown the commission disclosure (CONC 4.5.3R/4.5.4R): what, where and when. */
export const commissionDisclosures = sqliteTable(
  "commission_disclosures",
  {
    id: text("id").primaryKey(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    leadId: text("lead_id").notNull(),
    offerId: text("offer_id").notNull(),
    /** The offer's deal: the lender reads the evidence on GET /v1/deals/{ref}. Null for simulated offers. */
    dealRef: text("deal_ref"),
    what: text("what", { enum: ["nature", "amount"] }).notNull(),
    channel: text("channel", { enum: ["hub", "application_link"] }).notNull(),
    disclosureVersion: text("disclosure_version").notNull(),
    text: text("text").notNull(),
    amount: integer("amount"),
    currency: text("currency").notNull(),
    shownAt: text("shown_at").notNull(),
  },
  (t) => [
    index("commission_disclosures_lead").on(t.leadId, t.shownAt),
    index("commission_disclosures_deal").on(t.dealRef, t.shownAt).where(sql`deal_ref is not null`),
  ],
);

export type CommissionTermsRow = typeof commissionTerms.$inferSelect;
export type CommissionEntryRow = typeof commissionEntries.$inferSelect;
