-- Issue 44: the application link. One row per link a partner made for a lead; a new link revokes the
-- lead's previous one. The token is stored only as its sha256 (`token_hash`), never shown again; the
-- browser session a link was traded for is stored the same way (`session_hash`), one at a time per
-- link. Environment-scoped like the lead it belongs to (sandbox links live with sandbox data).
CREATE TABLE `application_links` (
	`id` text PRIMARY KEY NOT NULL,
	`lead_id` text NOT NULL,
	`organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`token_hash` text NOT NULL,
	`state` text NOT NULL,
	`submit_mode` text NOT NULL,
	`locked` text NOT NULL,
	`return_url` text,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`opened_at` text,
	`completed_at` text,
	`revoked_at` text,
	`session_hash` text,
	`session_expires_at` text,
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX `application_links_token` ON `application_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `application_links_session` ON `application_links` (`session_hash`) WHERE `session_hash` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `application_links_lead` ON `application_links` (`lead_id`, `created_at`);
