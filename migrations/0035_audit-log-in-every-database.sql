-- Issue 40 item 3: the portal's audit log is in every database (docs/capacity.md, "Which database a table
-- belongs to"): an action's entry is written in the action's own batch, so a sandbox lead's or deal's
-- action writes its entry in the sandbox's database, where `organisations` is empty. The foreign key to
-- `organisations` (a control table) would refuse it; the organisation is checked by the action itself
-- (every portal action is scoped to the member's organisation in SQL). Rebuilt without it, rowids kept
-- (the log's order of writing, db/write-order.ts).
CREATE TABLE `portal_audit_log_rebuilt` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` text NOT NULL,
	`member_id` text NOT NULL,
	`environment` text NOT NULL,
	`action` text NOT NULL,
	`target` text,
	`at` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `portal_audit_log_rebuilt` (`rowid`, `id`, `organisation_id`, `member_id`, `environment`, `action`, `target`, `at`)
	SELECT `rowid`, `id`, `organisation_id`, `member_id`, `environment`, `action`, `target`, `at` FROM `portal_audit_log`;
--> statement-breakpoint
DROP TABLE `portal_audit_log`;
--> statement-breakpoint
ALTER TABLE `portal_audit_log_rebuilt` RENAME TO `portal_audit_log`;
--> statement-breakpoint
CREATE INDEX `portal_audit_organisation` ON `portal_audit_log` (`organisation_id`,`at`);
--> statement-breakpoint
CREATE INDEX `portal_audit_target` ON `portal_audit_log` (`organisation_id`, `target`);
