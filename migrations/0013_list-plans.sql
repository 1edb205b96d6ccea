-- Every list reads its scope's index for both the filter and the order, at any size (issue 25 item 1),
-- and orders rows of one timestamp by the order of writing, the rowid (issue 28 item 6; db/write-order.ts).
--
-- 0009's unique index on `test_deal_ref` held a NULL entry for every ordinary lead. Each lead list
-- carries `test_deal_ref IS NULL`, an equality SQLite can seek in that index, so a first page (no
-- cursor range to prefer the scope index) walked every lead of the table and sorted them. A partial
-- index holds only the test-deal businesses, and a list cannot use it.
DROP INDEX `leads_test_deal_ref`;--> statement-breakpoint
CREATE UNIQUE INDEX `leads_test_deal_ref` ON `leads` (`test_deal_ref`) WHERE `test_deal_ref` IS NOT NULL;--> statement-breakpoint
-- Scope indexes end in the timestamp: SQLite orders every index entry by its columns and then by rowid,
-- so (scope…, created_at) serves ORDER BY created_at DESC, rowid DESC and a (created_at, rowid) cursor
-- range without a sort. The trailing random id they ended in could not.
DROP INDEX `leads_scope_created`;--> statement-breakpoint
DROP INDEX `leads_scope_state_created`;--> statement-breakpoint
DROP INDEX `leads_scope_country_created`;--> statement-breakpoint
CREATE INDEX `leads_scope_created` ON `leads` (`organisation_id`,`environment`,`created_at`);--> statement-breakpoint
CREATE INDEX `leads_scope_state_created` ON `leads` (`organisation_id`,`environment`,`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `leads_scope_country_created` ON `leads` (`organisation_id`,`environment`,`country`,`created_at`);--> statement-breakpoint
DROP INDEX `deals_lender_created`;--> statement-breakpoint
DROP INDEX `deals_lender_status_created`;--> statement-breakpoint
CREATE INDEX `deals_lender_created` ON `deals` (`lender_organisation_id`,`environment`,`created_at`);--> statement-breakpoint
CREATE INDEX `deals_lender_status_created` ON `deals` (`lender_organisation_id`,`environment`,`lender_status`,`created_at`);--> statement-breakpoint
-- The event feed is per API (partner or lender) and filters by event name or subject (case-insensitive).
DROP INDEX `events_scope_created`;--> statement-breakpoint
CREATE INDEX `events_scope_created` ON `events` (`organisation_id`,`environment`,`api`,`created_at`);--> statement-breakpoint
CREATE INDEX `events_scope_event_created` ON `events` (`organisation_id`,`environment`,`api`,`event`,`created_at`);--> statement-breakpoint
CREATE INDEX `events_scope_subject_created` ON `events` (`organisation_id`,`environment`,`api`,lower(`subject_id`),`created_at`);--> statement-breakpoint
DROP INDEX `webhook_deliveries_endpoint_created`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_created` ON `webhook_deliveries` (`endpoint_id`,`created_at`);--> statement-breakpoint
DROP INDEX `portal_audit_organisation`;--> statement-breakpoint
CREATE INDEX `portal_audit_organisation` ON `portal_audit_log` (`organisation_id`,`at`);
