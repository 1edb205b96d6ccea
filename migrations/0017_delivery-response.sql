-- Issue 23 item 3: each webhook attempt keeps what the receiver answered: the first 2 KB of the
-- response body, decoded as UTF-8 text with control characters dropped (the status is `status_code`).
-- Kept with the attempt row and deleted with it (settled deliveries past EVENT_RETENTION_DAYS).
ALTER TABLE `webhook_attempts` ADD `response_body` text;
