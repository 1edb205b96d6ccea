-- Issue 43: the introducer's commission (docs/commission.md).
-- Terms: one row per change, never updated; the row in force at a moment is the latest whose
-- `effective_at` is not after it. `partner_organisation_id` is '' for the product's default, so the
-- key is an ordinary (non-null) index.
CREATE TABLE `commission_terms` (
	`id` text PRIMARY KEY NOT NULL,
	`lender_organisation_id` text NOT NULL,
	`product_id` text NOT NULL,
	`partner_organisation_id` text NOT NULL,
	`currency` text NOT NULL,
	`basis` text NOT NULL,
	`rate_bps` integer,
	`flat_amount` integer,
	`min_amount` integer,
	`max_amount` integer,
	`clawback_days` integer NOT NULL,
	`effective_at` text NOT NULL
);--> statement-breakpoint
CREATE INDEX `commission_terms_key_effective` ON `commission_terms` (`lender_organisation_id`,`product_id`,`partner_organisation_id`,`currency`,`effective_at`);--> statement-breakpoint
-- The ledger: append-only, integer minor units. `amount` moves the commission outstanding on the deal
-- (owed by the lender to the introducer): accrued +, paid -, clawed_back -. One accrued entry per
-- funded lead, and at most one paid and one clawed_back entry per accrued entry (the unique indexes
-- decide between racing writers).
CREATE TABLE `commission_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`environment` text NOT NULL,
	`kind` text NOT NULL,
	`partner_organisation_id` text NOT NULL,
	`lender_organisation_id` text NOT NULL,
	`lead_id` text NOT NULL,
	`deal_ref` text,
	`product_id` text NOT NULL,
	`product_family` text,
	`accrued_entry_id` text,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`funded_amount` integer,
	`terms_id` text NOT NULL,
	`basis` text NOT NULL,
	`rate_bps` integer,
	`clawback_days` integer NOT NULL,
	`payment_reference` text,
	`reason` text,
	`month` text NOT NULL,
	`created_at` text NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX `commission_entries_one_accrual` ON `commission_entries` (`environment`,`lead_id`) WHERE kind = 'accrued';--> statement-breakpoint
CREATE UNIQUE INDEX `commission_entries_one_follow_up` ON `commission_entries` (`accrued_entry_id`,`kind`) WHERE accrued_entry_id is not null;--> statement-breakpoint
CREATE INDEX `commission_entries_partner_created` ON `commission_entries` (`partner_organisation_id`,`environment`,`created_at`);--> statement-breakpoint
CREATE INDEX `commission_entries_partner_month` ON `commission_entries` (`partner_organisation_id`,`environment`,`month`,`created_at`);--> statement-breakpoint
CREATE INDEX `commission_entries_lender_created` ON `commission_entries` (`lender_organisation_id`,`environment`,`created_at`);--> statement-breakpoint
CREATE INDEX `commission_entries_environment_month` ON `commission_entries` (`environment`,`month`,`created_at`);--> statement-breakpoint
CREATE TRIGGER `commission_entries_no_update` BEFORE UPDATE ON `commission_entries` BEGIN SELECT RAISE(ABORT, 'commission_entries is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `commission_entries_no_delete` BEFORE DELETE ON `commission_entries` BEGIN SELECT RAISE(ABORT, 'commission_entries is append-only'); END;--> statement-breakpoint
-- The evidence of disclosure (CONC 4.5.3R/4.5.4R): every showing to the business, what and when.
CREATE TABLE `commission_disclosures` (
	`id` text PRIMARY KEY NOT NULL,
	`environment` text NOT NULL,
	`lead_id` text NOT NULL,
	`offer_id` text NOT NULL,
	`deal_ref` text,
	`what` text NOT NULL,
	`channel` text NOT NULL,
	`disclosure_version` text NOT NULL,
	`text` text NOT NULL,
	`amount` integer,
	`currency` text NOT NULL,
	`shown_at` text NOT NULL
);--> statement-breakpoint
CREATE INDEX `commission_disclosures_lead` ON `commission_disclosures` (`lead_id`,`shown_at`);--> statement-breakpoint
CREATE INDEX `commission_disclosures_deal` ON `commission_disclosures` (`deal_ref`,`shown_at`) WHERE deal_ref is not null;--> statement-breakpoint
-- The lender's report that a funded deal ended early: `settled_early` or `defaulted` (lender_status stays `funded`).
ALTER TABLE `deals` ADD `repayment_outcome` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `repayment_outcome_at` text;
