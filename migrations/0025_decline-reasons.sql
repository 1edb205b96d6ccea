-- Issue 41: a lender's decline as codes of the `decline-reasons` list (JSON `[{code, detail, shareable}]`,
-- NULL until the deal is declined), and the product family a deal was routed for (the first matched
-- product's), which the partner's anonymised outcomes name instead of the lender. Deals routed before this
-- migration take the family from the panel product they matched, when it is still on the panel.
ALTER TABLE `deals` ADD `decline_reasons` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `product_family` text;--> statement-breakpoint
UPDATE `deals` SET `product_family` = (
  SELECT `panel_products`.`product_family` FROM `panel_products`
  WHERE `panel_products`.`lender_organisation_id` = `deals`.`lender_organisation_id` AND `panel_products`.`id` = json_extract(`deals`.`product_ids`, '$[0]')
);--> statement-breakpoint
-- A deal declined before the codes existed said why in free text (`status_reason`): it reads as `other`.
UPDATE `deals` SET `decline_reasons` = CASE WHEN `status_reason` IS NULL THEN '[]' ELSE json_array(json_object('code', 'other', 'detail', `status_reason`, 'shareable', json('false'))) END
WHERE `lender_status` = 'declined';
