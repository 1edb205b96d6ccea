-- Issue 21 item 6: client-hub links expire 30 days after issue and can be rotated. A lead without a
-- row has its first link (generation 0, issued at the lead's creation); a rotation writes the row.
CREATE TABLE `hub_links` (
	`lead_id` text PRIMARY KEY NOT NULL,
	`generation` integer NOT NULL,
	`issued_at` text NOT NULL,
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade
);
