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
CREATE INDEX `offers_deal` ON `offers` (`deal_ref`,`created_at`);--> statement-breakpoint
CREATE TABLE `leads` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` text NOT NULL,
	`environment` text NOT NULL,
	`reference` text NOT NULL,
	`partner_reference` text,
	`state` text NOT NULL,
	`country` text NOT NULL,
	`channel` text,
	`business` text,
	`contact` text,
	`funding` text,
	`trading` text,
	`consent` text,
	`significant_persons` text NOT NULL,
	`timeline` text NOT NULL,
	`matched_options` integer,
	`options` text,
	`version` integer DEFAULT 1 NOT NULL,
	`submission_token` text,
	`submitted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `leads_environment_reference` ON `leads` (`environment`,`reference`);--> statement-breakpoint
CREATE INDEX `leads_scope_created` ON `leads` (`organisation_id`,`environment`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `leads_scope_state_created` ON `leads` (`organisation_id`,`environment`,`state`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `leads_scope_country_created` ON `leads` (`organisation_id`,`environment`,`country`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `panel_products` (
	`lender_organisation_id` text NOT NULL,
	`id` text NOT NULL,
	`position` integer NOT NULL,
	`product_family` text NOT NULL,
	`label` text NOT NULL,
	`markets` text NOT NULL,
	`min_amount` real NOT NULL,
	`max_amount` real NOT NULL,
	`min_monthly_revenue` real NOT NULL,
	`min_months_trading` integer NOT NULL,
	`min_credit_score_band` text,
	`excluded_industries` text NOT NULL,
	`purposes` text NOT NULL,
	`pricing` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`lender_organisation_id`, `id`),
	FOREIGN KEY (`lender_organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `panel_products_lender_position` ON `panel_products` (`lender_organisation_id`,`position`);--> statement-breakpoint
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