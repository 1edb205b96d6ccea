-- One business, one introducer (docs/leads.md, "Attribution"): the company a routed lead names,
-- claimed in the submit's own batch. The partial unique index is the rule: one active claim per
-- company per environment, so racing submits of one company leave exactly one routed lead (the
-- others' batches fail on it and are written again as not routed). A claim stops being active when
-- its lead ends without funding, its funding leaves the attribution window, or an operator
-- releases it; the submit that finds it so retires it in the same batch.
CREATE TABLE `company_claims` (
	`id` text PRIMARY KEY NOT NULL,
	`environment` text NOT NULL,
	`company_key` text NOT NULL,
	`lead_id` text NOT NULL,
	`organisation_id` text NOT NULL,
	`since` text NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`ended_at` text,
	`released_at` text,
	`release_reason` text
);--> statement-breakpoint
CREATE UNIQUE INDEX `company_claims_one_active` ON `company_claims` (`environment`,`company_key`) WHERE `active` = 1;--> statement-breakpoint
CREATE INDEX `company_claims_lead` ON `company_claims` (`lead_id`);--> statement-breakpoint
CREATE INDEX `company_claims_listed` ON `company_claims` (`environment`,`active`,`since`);
