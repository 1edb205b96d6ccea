-- Issue 21 item 8: every rendered portal form's token is single-use for its action. The first post
-- claims (session, nonce, action); a second post of the same form finds the claim and is shown the
-- first post's outcome (a redirect is replayed) instead of acting again. Rows die with their
-- session (the absolute lifetime is 7 days); the cron removes older ones.
CREATE TABLE `portal_form_uses` (
	`session_id` text NOT NULL,
	`nonce` text NOT NULL,
	`action` text NOT NULL,
	`created_at` text NOT NULL,
	`status` integer,
	`location` text,
	PRIMARY KEY(`session_id`, `nonce`, `action`)
);
--> statement-breakpoint
CREATE INDEX `portal_form_uses_created` ON `portal_form_uses` (`created_at`);
