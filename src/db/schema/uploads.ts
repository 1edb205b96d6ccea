import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * R2 objects written before the row that points at them: one marker per key,
 * inserted before the `put` and removed in the same D1 batch as the row lands.
 * A marker still here some minutes later names an object whose row never
 * landed (a failed batch); the cron deletes the object and the marker.
 */
export const pendingUploads = sqliteTable(
  "pending_uploads",
  {
    storageKey: text("storage_key").primaryKey(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("pending_uploads_created").on(t.createdAt)],
);
