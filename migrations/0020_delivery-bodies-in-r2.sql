-- Issue 40 item 2: a webhook delivery's body moves out of D1. New rows keep `body` empty and name
-- their body in R2 by the SHA-256 of its bytes (`webhook-bodies/<environment>/<day>/<body_hash>` in
-- the DOCUMENTS bucket, src/services/webhooks/bodies.ts). Rows written before keep their body here
-- (body_hash null) until the cron prunes them with EVENT_RETENTION_DAYS. An ADD COLUMN, not a table
-- rebuild: copying a full deliveries table would not fit D1's per-query limits.
ALTER TABLE `webhook_deliveries` ADD `body_hash` text;
