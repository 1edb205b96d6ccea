-- Issue 39 item 1: the passkeys a new sign-in link replaced (a re-enrolment deletes every passkey of the
-- member), kept with the link that replaced them, so the member who still holds one is told, when they
-- next sign in with it, when their passkeys were replaced and who made the link. Written in the
-- re-enrolment's own batch; never signs anyone in.
CREATE TABLE `portal_replaced_passkeys` (
	`credential_id` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL REFERENCES `portal_members`(`id`),
	`public_key` text NOT NULL,
	`counter` integer NOT NULL,
	`invitation_id` text NOT NULL REFERENCES `portal_invitations`(`id`),
	`replaced_at` text NOT NULL
);
