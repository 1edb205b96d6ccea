-- The portal: people (members) of an organisation who sign in with passkeys.
-- No password column exists anywhere: a member proves who they are with a passkey only.
CREATE TABLE `portal_members` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` text NOT NULL REFERENCES `organisations`(`id`),
	`email` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	`removed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portal_members_organisation_email` ON `portal_members` (`organisation_id`,`email`);
--> statement-breakpoint
-- A single-use invitation link: only the SHA-256 of its token is kept.
CREATE TABLE `portal_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` text NOT NULL REFERENCES `organisations`(`id`),
	`email` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` text,
	`member_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portal_invitations_token` ON `portal_invitations` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `portal_invitations_organisation` ON `portal_invitations` (`organisation_id`);
--> statement-breakpoint
CREATE TABLE `portal_passkeys` (
	`credential_id` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL REFERENCES `portal_members`(`id`),
	`public_key` text NOT NULL,
	`counter` integer NOT NULL DEFAULT 0,
	`transports` text NOT NULL DEFAULT '[]',
	`created_at` text NOT NULL,
	`last_used_at` text
);
--> statement-breakpoint
CREATE INDEX `portal_passkeys_member` ON `portal_passkeys` (`member_id`);
--> statement-breakpoint
-- A WebAuthn ceremony's challenge, kept between the options and the answer; used once.
CREATE TABLE `portal_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`challenge` text NOT NULL,
	`purpose` text NOT NULL,
	`invitation_id` text,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
-- Server-side sessions: the cookie holds a random token, the row its SHA-256.
CREATE TABLE `portal_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL REFERENCES `portal_members`(`id`),
	`organisation_id` text NOT NULL REFERENCES `organisations`(`id`),
	`environment` text NOT NULL DEFAULT 'sandbox',
	`created_at` text NOT NULL,
	`last_seen_at` integer NOT NULL,
	`ended_at` text
);
--> statement-breakpoint
CREATE INDEX `portal_sessions_member` ON `portal_sessions` (`member_id`);
--> statement-breakpoint
CREATE TABLE `portal_audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` text NOT NULL REFERENCES `organisations`(`id`),
	`member_id` text NOT NULL,
	`environment` text NOT NULL,
	`action` text NOT NULL,
	`target` text,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `portal_audit_organisation` ON `portal_audit_log` (`organisation_id`,`at`,`id`);
