-- A refused form post of the portal, the client hub or the application link is answered 303 to the
-- form's page (post/redirect/get), so Back or reload never asks to send the form again. The page as
-- drawn for the refusal (form tokens taken out) waits here for that one GET, under the hash of a
-- random one-time id, bound to the hash of the browser session that posted it. Rows live minutes:
-- the GET deletes its row, and the cron removes what nobody came back for.
CREATE TABLE `refused_posts` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`session_hash` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`page` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `refused_posts_created` ON `refused_posts` (`created_at`);
