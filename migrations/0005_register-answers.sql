-- What the company register and the VAT register answered for a lead (or for a
-- lead-less test deal), one row per owner and kind. The row names the number
-- (and market) it answers for: a lead write drops the row in the same batch
-- when the lead no longer holds that number, so a stale answer is never shown.
CREATE TABLE `register_answers` (
	`owner_id` text NOT NULL,
	`kind` text NOT NULL,
	`environment` text NOT NULL,
	`country` text NOT NULL,
	`number` text NOT NULL,
	`lookup_id` text NOT NULL,
	`answer` text,
	`checked_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`due_at` text,
	`requested_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`owner_id`, `kind`)
);
--> statement-breakpoint
CREATE INDEX `register_answers_due` ON `register_answers` (`due_at`);
