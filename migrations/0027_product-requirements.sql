-- What a panel product requires the application to hold, some only under a condition
-- (docs/matcher.md, "Requirements"): a JSON array of {field, when?}. Existing products require nothing.
ALTER TABLE `panel_products` ADD `requires` text DEFAULT '[]' NOT NULL;
