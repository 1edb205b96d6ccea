import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { leads } from "./leads";

/**
 * The application links of a lead (issue 44, `migrations/0033_application-links.sql`). The token and
 * the browser session are stored hashed (sha256 hex), never in the clear. `state` is what was written
 * (`sent`, `opened`, `completed`, `revoked`); `expired` is read from `expires_at`.
 */
export const applicationLinks = sqliteTable(
  "application_links",
  {
    id: text("id").primaryKey(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    organisationId: text("organisation_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    state: text("state", { enum: ["sent", "opened", "completed", "revoked"] }).notNull(),
    submitMode: text("submit_mode", { enum: ["auto", "review"] }).notNull(),
    locked: text("locked", { mode: "json" }).$type<string[]>().notNull(),
    returnUrl: text("return_url"),
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull(),
    openedAt: text("opened_at"),
    completedAt: text("completed_at"),
    revokedAt: text("revoked_at"),
    sessionHash: text("session_hash"),
    sessionExpiresAt: text("session_expires_at"),
  },
  (t) => [
    uniqueIndex("application_links_token").on(t.tokenHash),
    index("application_links_session").on(t.sessionHash).where(sql`session_hash IS NOT NULL`),
    index("application_links_lead").on(t.leadId, t.createdAt),
  ],
);

export type ApplicationLinkRow = typeof applicationLinks.$inferSelect;
