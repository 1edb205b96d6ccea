CREATE TABLE `deal_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_ref` text NOT NULL,
	`direction` text NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `deal_messages_deal` ON `deal_messages` (`deal_ref`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `deals` (
	`ref` text PRIMARY KEY NOT NULL,
	`lender_organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`lead_id` text,
	`partner_organisation_id` text,
	`test` integer DEFAULT false NOT NULL,
	`product_ids` text NOT NULL,
	`subject` text NOT NULL,
	`status` text NOT NULL,
	`lender_status` text NOT NULL,
	`status_reason` text,
	`funded_amount` real,
	`account_submitted_at` text,
	`account_summary` text,
	`agreement_uploaded_at` text,
	`agreement_key` text,
	`signed_at` text,
	`signature_verification` text,
	`deleted_at` text,
	`last_change` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `deals_lender_created` ON `deals` (`lender_organisation_id`,`environment`,`created_at`,`ref`);--> statement-breakpoint
CREATE INDEX `deals_lender_status_created` ON `deals` (`lender_organisation_id`,`environment`,`lender_status`,`created_at`,`ref`);--> statement-breakpoint
CREATE INDEX `deals_lead` ON `deals` (`lead_id`);--> statement-breakpoint
CREATE TABLE `lead_routing` (
	`lead_id` text PRIMARY KEY NOT NULL,
	`partner_organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`reasons` text NOT NULL,
	`offers_presented_at` text,
	`accepted_offer_id` text,
	`accepted_at` text,
	`outcome` text,
	`outcome_at` text,
	`funded_amount` real,
	`last_change` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `offers` (
	`id` text PRIMARY KEY NOT NULL,
	`environment` text NOT NULL,
	`lead_id` text,
	`deal_ref` text,
	`lender_organisation_id` text NOT NULL,
	`label` text NOT NULL,
	`maturity` text NOT NULL,
	`kind` text NOT NULL,
	`amount` real NOT NULL,
	`currency` text NOT NULL,
	`annual_rate_pct` real,
	`factor_rate` real,
	`term_months` integer,
	`fees` real,
	`total_repayment` real,
	`expires_at` text,
	`notes` text,
	`state` text NOT NULL,
	`superseded` integer DEFAULT false NOT NULL,
	`superseded_at` text,
	`superseded_by` text,
	`simulated` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `offers_lead` ON `offers` (`lead_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `offers_deal` ON `offers` (`deal_ref`,`created_at`);