-- Columns that are NULL for most rows: `documents.deal_ref` and `documents.request_id` (a lead's own
-- uploads carry neither) and `leads.renewal_of` (most leads renew nothing). Full indexes on them held
-- one entry per NULL, and once ANALYZE recorded that (D1 runs `PRAGMA optimize`), SQLite took each for
-- one key of thousands of rows: a deal's read scanned every document, and the lead read's renewals
-- scanned every lead (test/lists/query-plans.test.ts, test/leads/read-plan.test.ts). Every query on
-- these columns compares them to a value, which implies NOT NULL, so partial indexes serve them, and
-- their statistics count only real keys.
DROP INDEX `documents_deal`;--> statement-breakpoint
CREATE INDEX `documents_deal` ON `documents` (`deal_ref`,`received_at`,`id`) WHERE `deal_ref` IS NOT NULL;--> statement-breakpoint
DROP INDEX `documents_request`;--> statement-breakpoint
CREATE INDEX `documents_request` ON `documents` (`request_id`,`received_at`,`id`) WHERE `request_id` IS NOT NULL;--> statement-breakpoint
DROP INDEX `leads_renewal_of`;--> statement-breakpoint
CREATE INDEX `leads_renewal_of` ON `leads` (`renewal_of`,`created_at`) WHERE `renewal_of` IS NOT NULL;
