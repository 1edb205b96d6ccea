CREATE TABLE `client_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`lead_id` text NOT NULL,
	`environment` text NOT NULL,
	`kind` text NOT NULL,
	`deal_ref` text,
	`subject` text NOT NULL,
	`deep_link` text NOT NULL,
	`created_at` text NOT NULL,
	`read_at` text
);
--> statement-breakpoint
CREATE INDEX `client_notifications_lead` ON `client_notifications` (`lead_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `document_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_ref` text NOT NULL,
	`environment` text NOT NULL,
	`lender_organisation_id` text NOT NULL,
	`lead_id` text,
	`item_type` text NOT NULL,
	`document_type` text NOT NULL,
	`label` text NOT NULL,
	`note` text,
	`status` text NOT NULL,
	`requested_via` text NOT NULL,
	`file_count` integer DEFAULT 0 NOT NULL,
	`requested_at` text NOT NULL,
	`uploaded_at` text,
	`forwarded_at` text,
	`waived_at` text,
	`last_change` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `document_requests_deal` ON `document_requests` (`deal_ref`,`requested_at`,`id`);--> statement-breakpoint
CREATE INDEX `document_requests_lead` ON `document_requests` (`lead_id`,`requested_at`);--> statement-breakpoint
CREATE TABLE `documents` (
	`id` text PRIMARY KEY NOT NULL,
	`environment` text NOT NULL,
	`lead_id` text NOT NULL,
	`partner_organisation_id` text NOT NULL,
	`deal_ref` text,
	`request_id` text,
	`source` text NOT NULL,
	`document_type` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`state` text NOT NULL,
	`reason` text,
	`storage_key` text NOT NULL,
	`statement` text,
	`received_at` text NOT NULL,
	`decided_at` text
);
--> statement-breakpoint
CREATE INDEX `documents_lead` ON `documents` (`lead_id`,`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `documents_deal` ON `documents` (`deal_ref`,`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `documents_request` ON `documents` (`request_id`,`received_at`,`id`);