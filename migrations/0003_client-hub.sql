ALTER TABLE `deal_messages` ADD `subject` text;--> statement-breakpoint
ALTER TABLE `deal_messages` ADD `from_email` text;