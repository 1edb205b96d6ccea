-- Issue 45 items 9 and 10: a portal member's display name (the client hub's "Your adviser: {name}, {firm}")
-- and time zone (every portal time is shown in it, named). An invitation carries the name it was issued
-- with, which the member gets on joining. Both nullable: no name shows the firm alone, no zone is UTC.
ALTER TABLE `portal_members` ADD `display_name` text;--> statement-breakpoint
ALTER TABLE `portal_members` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `portal_invitations` ADD `display_name` text;--> statement-breakpoint
-- The hub finds the member who opened a lead by its `lead.created` entry: by organisation and target, not a scan of the log.
CREATE INDEX `portal_audit_target` ON `portal_audit_log` (`organisation_id`, `target`);
