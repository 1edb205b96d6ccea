CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`api` text NOT NULL,
	`event` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`test` integer DEFAULT false NOT NULL,
	`detail` text NOT NULL,
	`created_at` text NOT NULL,
	`dispatched_at` text
);
--> statement-breakpoint
CREATE INDEX `events_scope_created` ON `events` (`organisation_id`,`environment`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `events_undispatched` ON `events` (`dispatched_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `access_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `access_tokens_key` ON `access_tokens` (`key_id`);--> statement-breakpoint
CREATE INDEX `access_tokens_expiry` ON `access_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`kind` text NOT NULL,
	`key_hash` text NOT NULL,
	`allowed_origins` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_client_id_unique` ON `api_keys` (`client_id`);--> statement-breakpoint
CREATE INDEX `api_keys_organisation` ON `api_keys` (`organisation_id`);--> statement-breakpoint
CREATE TABLE `idempotency_records` (
	`scope_key` text PRIMARY KEY NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`response_body` text NOT NULL,
	`response_headers` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `organisations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text NOT NULL
);
