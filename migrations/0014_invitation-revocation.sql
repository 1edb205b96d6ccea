-- Issue 21 item 1: a pending invitation can be revoked (by an admin, the operator, a newer invitation for the
-- same email, its acceptance or the member's removal); revoked links open nothing.
ALTER TABLE `portal_invitations` ADD `revoked_at` text;
--> statement-breakpoint
CREATE INDEX `portal_invitations_email` ON `portal_invitations` (`organisation_id`,`email`);
