import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * What the company register (`kind` `registry`) and the VAT register (`vat`)
 * answered for one owner: a lead, or a test deal that no lead stands behind
 * (owner = the deal's reference). The row names the number and market it
 * answers for; a lead write that changes either drops the row in the same
 * batch, so an answer for an old number is never shown.
 *
 * `lookup_id` is random per requested lookup: the queue consumer stores an
 * answer only while the row still carries the id its message names.
 * `answer` is null until the register's first answer is stored; `due_at` is
 * when the next attempt is due (null once settled), which the cron reads to
 * re-send a lookup whose queue message was lost.
 */
export const registerAnswers = sqliteTable(
  "register_answers",
  {
    ownerId: text("owner_id").notNull(),
    kind: text("kind", { enum: ["registry", "vat"] }).notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** Market alpha-2 the number was looked up in. */
    country: text("country").notNull(),
    number: text("number").notNull(),
    lookupId: text("lookup_id").notNull(),
    /** The spec's `business.registry` or `business.vat` object, as stored. */
    answer: text("answer", { mode: "json" }).$type<unknown>(),
    checkedAt: text("checked_at"),
    attempts: integer("attempts").notNull().default(0),
    dueAt: text("due_at"),
    requestedAt: text("requested_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.kind] }), index("register_answers_due").on(t.dueAt)],
);

export type RegisterAnswerRow = typeof registerAnswers.$inferSelect;
