import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type {
  LeadBusiness,
  LeadChannel,
  LeadConsent,
  LeadContact,
  LeadFunding,
  LeadOption,
  LeadTrading,
  SignificantPerson,
  TimelineEntry,
} from "../../domain/leads/types";

/**
 * Partner leads. What the applicant said is kept as JSON parts exactly as sent
 * (an absent key is unknown, never defaulted); the columns the list filters and
 * orders on are scalar and indexed.
 */
export const leads = sqliteTable(
  "leads",
  {
    id: text("id").primaryKey(),
    organisationId: text("organisation_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** Short human reference (`RF-7K3M9Q`), unique per environment. */
    reference: text("reference").notNull(),
    partnerReference: text("partner_reference"),
    state: text("state").notNull(),
    /** Market alpha-2 (`GB`, not the response code `UK`). */
    country: text("country").notNull(),
    channel: text("channel", { mode: "json" }).$type<LeadChannel | null>(),
    business: text("business", { mode: "json" }).$type<LeadBusiness | null>(),
    contact: text("contact", { mode: "json" }).$type<LeadContact | null>(),
    funding: text("funding", { mode: "json" }).$type<LeadFunding | null>(),
    trading: text("trading", { mode: "json" }).$type<LeadTrading | null>(),
    consent: text("consent", { mode: "json" }).$type<LeadConsent | null>(),
    significantPersons: text("significant_persons", { mode: "json" }).$type<SignificantPerson[]>().notNull(),
    timeline: text("timeline", { mode: "json" }).$type<TimelineEntry[]>().notNull(),
    /** Null until submitted. */
    matchedOptions: integer("matched_options"),
    options: text("options", { mode: "json" }).$type<LeadOption[] | null>(),
    /** Bumped by every write; conditional updates on it stop lost updates between concurrent PATCHes and submit. */
    version: integer("version").notNull().default(1),
    /** Random token of the submit that won; the events of that submit are inserted only when it matches. */
    submissionToken: text("submission_token"),
    submittedAt: text("submitted_at"),
    /** The funded lead this one renews (migration 0004); null when not a renewal. */
    renewalOf: text("renewal_of"),
    /** Set only on the sandbox business behind a lender's test deal (migration 0009): never listed or read as a lead. */
    testDealRef: text("test_deal_ref"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("leads_environment_reference").on(t.environment, t.reference),
    // Each index ends in created_at and then, implicitly, the rowid: the lists' order (db/write-order.ts).
    index("leads_scope_created").on(t.organisationId, t.environment, t.createdAt),
    index("leads_scope_state_created").on(t.organisationId, t.environment, t.state, t.createdAt),
    index("leads_scope_country_created").on(t.organisationId, t.environment, t.country, t.createdAt),
    // Partial: most leads renew nothing (migration 0019).
    index("leads_renewal_of").on(t.renewalOf, t.createdAt).where(sql`${t.renewalOf} is not null`),
    // Partial: a NULL entry per ordinary lead drew every list's `test_deal_ref IS NULL` into this index (migration 0013).
    uniqueIndex("leads_test_deal_ref").on(t.testDealRef).where(sql`${t.testDealRef} is not null`),
  ],
);

export type LeadRow = typeof leads.$inferSelect;
