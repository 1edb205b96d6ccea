-- A renewal is a new draft lead opened from a funded one; it names the lead it renews.
ALTER TABLE `leads` ADD `renewal_of` text REFERENCES `leads`(`id`);--> statement-breakpoint
CREATE INDEX `leads_renewal_of` ON `leads` (`renewal_of`,`created_at`);
