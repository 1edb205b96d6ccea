import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { leads } from "./leads";

/**
 * The client-hub link of a lead. No row means the lead's
 * first link: generation 0, issued when the lead was created. A rotation
 * (partner API or portal) bumps the generation, which changes the token, so
 * the old link and every session opened with it die at once; it also
 * restarts the 30 days the link lives. Holds no personal data.
 */
export const hubLinks = sqliteTable("hub_links", {
  leadId: text("lead_id")
    .primaryKey()
    .references(() => leads.id, { onDelete: "cascade" }),
  generation: integer("generation").notNull(),
  issuedAt: text("issued_at").notNull(),
});
