import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The event log and outbox. A state change and the events it emits are written
 * in one D1 batch, so no event is lost and none exists for a change that did
 * not commit. Webhook delivery reads undispatched rows from here.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    /** The organisation the event is for (a partner for lead events, a lender for deal events). */
    organisationId: text("organisation_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    api: text("api", { enum: ["partner", "lender"] }).notNull(),
    event: text("event").notNull(),
    /** What the event is about: a lead id, a deal reference or a referral id. */
    subjectType: text("subject_type", { enum: ["lead", "deal", "referral"] }).notNull(),
    subjectId: text("subject_id").notNull(),
    /** True for events of sandbox test deals. */
    test: integer("test", { mode: "boolean" }).notNull().default(false),
    /** The event's own detail (`update`, `message`, `offer`…) as JSON. */
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
    dispatchedAt: text("dispatched_at"),
  },
  (t) => [
    index("events_scope_created").on(t.organisationId, t.environment, t.api, t.createdAt),
    index("events_scope_event_created").on(t.organisationId, t.environment, t.api, t.event, t.createdAt),
    index("events_scope_subject_created").on(t.organisationId, t.environment, t.api, sql`lower(${t.subjectId})`, t.createdAt),
    index("events_undispatched").on(t.dispatchedAt, t.createdAt),
    index("events_created").on(t.createdAt, t.id),
  ],
);
