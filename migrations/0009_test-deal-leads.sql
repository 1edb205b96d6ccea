-- The sandbox business behind a lender's test deal (POST /v1/test/deals/{ref}/simulate):
-- a lead of the lender organisation that stands for the test deal's business, so the
-- client hub's own code can act on the deal. `test_deal_ref` names the deal; such a
-- lead is never listed or read as a lead (referrals, partner lists), only through its deal.
ALTER TABLE `leads` ADD `test_deal_ref` text;--> statement-breakpoint
CREATE UNIQUE INDEX `leads_test_deal_ref` ON `leads` (`test_deal_ref`);
