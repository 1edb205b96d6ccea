-- Issue 23 item 3: a webhook endpoint carries a person's label ("Production CRM"): plain text, trimmed,
-- at most 200 characters, no control or text-direction characters; null when none was given.
-- Set on registration and by PATCH (null or "" clears it); read back by both APIs and the portal.
ALTER TABLE `webhook_endpoints` ADD `description` text;
