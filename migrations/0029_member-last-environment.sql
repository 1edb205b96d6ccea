-- Issue 45 item 3: each member's last environment. A switch writes it with the session's, and a new
-- session (a sign-in) opens in it, so a member who works in live is not sent back to the sandbox.
ALTER TABLE `portal_members` ADD `last_environment` text DEFAULT 'sandbox' NOT NULL;
