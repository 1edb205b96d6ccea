-- Issue 45 item 6: the payout account in full, for the lender's admin to pay into. Sealed with AES-256-GCM
-- (src/lib/secret-box.ts, purpose "payout-account"); every view keeps showing `account_summary` only.
-- Null for accounts given before this column (only their masked summary was ever kept).
ALTER TABLE `deals` ADD `account_sealed` text;
