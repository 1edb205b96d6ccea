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