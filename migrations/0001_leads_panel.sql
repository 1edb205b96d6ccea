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
CREATE INDEX `panel_products_lender_position` ON `panel_products` (`lender_organisation_id`,`position`);