-- Issue 45 item 5: the lender's working set. A deal can be assigned to one of the lender's members,
-- and the lender's members keep internal notes on it. Neither is in any API, event or webhook: the
-- partner and the client hub never read these (test/portal/lender/queue.test.ts).
ALTER TABLE `deals` ADD `assignee_member_id` text;--> statement-breakpoint
CREATE TABLE `deal_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_ref` text NOT NULL,
	`lender_organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`member_id` text NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL
);--> statement-breakpoint
CREATE INDEX `deal_notes_deal` ON `deal_notes` (`lender_organisation_id`, `environment`, `deal_ref`, `created_at`);
