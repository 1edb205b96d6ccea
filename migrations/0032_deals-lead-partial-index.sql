-- `deals.lead_id` is NULL on every test deal (a lender's sandbox deals have no lead). The full index held
-- one entry per NULL, and once ANALYZE recorded that, SQLite took `lead_id = ?` for one key of thousands
-- of rows and scanned the table for a lead's routed options (the lead read's deals statement,
-- test/lists/query-plans.test.ts). As in 0019: every query on the column compares it to a value, which
-- implies NOT NULL, so a partial index serves them and its statistics count only real keys.
DROP INDEX `deals_lead`;--> statement-breakpoint
CREATE INDEX `deals_lead` ON `deals` (`lead_id`,`created_at`) WHERE `lead_id` IS NOT NULL;
