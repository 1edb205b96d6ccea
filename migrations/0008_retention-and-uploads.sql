CREATE TABLE `pending_uploads` (
	`storage_key` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pending_uploads_created` ON `pending_uploads` (`created_at`);--> statement-breakpoint
CREATE INDEX `documents_storage_key` ON `documents` (`storage_key`);--> statement-breakpoint
CREATE INDEX `deals_agreement_key` ON `deals` (`agreement_key`);--> statement-breakpoint
CREATE INDEX `events_created` ON `events` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created` ON `webhook_deliveries` (`created_at`,`id`);
