import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

/**
 * Attribution: which routed lead (and so which partner) introduced a company.
 * `company_key` is the company's one identity (src/domain/registers/identity.ts).
 * At most one active claim per company and environment (the partial unique
 * index), written in the submit's batch, so the database decides between
 * racing submits. Migration 0024_company-claims.
 */
export const companyClaims = sqliteTable(
  "company_claims",
  {
    id: text("id").primaryKey(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    companyKey: text("company_key").notNull(),
    leadId: text("lead_id").notNull(),
    organisationId: text("organisation_id").notNull(),
    since: text("since").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** When the claim stopped being active (its lead ended, the window passed, or a release). */
    endedAt: text("ended_at"),
    releasedAt: text("released_at"),
    releaseReason: text("release_reason"),
  },
  (t) => [
    uniqueIndex("company_claims_one_active").on(t.environment, t.companyKey).where(sql`active = 1`),
    index("company_claims_lead").on(t.leadId),
    index("company_claims_listed").on(t.environment, t.active, t.since),
  ],
);

export type CompanyClaimRow = typeof companyClaims.$inferSelect;
