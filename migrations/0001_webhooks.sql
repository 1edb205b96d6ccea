CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt_number` integer,
	`trigger` text NOT NULL,
	`attempted_at` text NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery` ON `webhook_attempts` (`delivery_id`,`attempted_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`event_id` text NOT NULL,
	`event` text NOT NULL,
	`payload_mode` text NOT NULL,
	`body` text NOT NULL,
	`state` text NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`last_status_code` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_endpoint_event` ON `webhook_deliveries` (`endpoint_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_created` ON `webhook_deliveries` (`endpoint_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`api` text NOT NULL,
	`host_kind` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`payload_mode` text NOT NULL,
	`active` integer NOT NULL,
	`deactivated_reason` text,
	`secret_sealed` text NOT NULL,
	`previous_secret_sealed` text,
	`previous_secret_expires_at` text,
	`failure_count` integer DEFAULT 0 NOT NULL,
	`consecutive_exhausted` integer DEFAULT 0 NOT NULL,
	`last_success_at` text,
	`last_failure_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_scope` ON `webhook_endpoints` (`organisation_id`,`environment`,`api`,`created_at`);