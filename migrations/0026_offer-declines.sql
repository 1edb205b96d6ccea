-- Issue 41 item 5: the business's own "no". An offer the business (or the partner for it) declined is
-- `state = 'declined'`, with the code it gave (`offer-decline-reasons`) and when.
ALTER TABLE `offers` ADD `declined_reason` text;--> statement-breakpoint
ALTER TABLE `offers` ADD `declined_at` text;
