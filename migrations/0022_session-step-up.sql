-- Issue 39 item 9: when this session last proved a passkey (epoch seconds): its sign-in or enrolment, or
-- a step-up on the page. Adding a passkey, making a new sign-in link and creating a live key need one
-- within the last 5 minutes, so a copied session cookie alone cannot make itself a permanent login.
-- Sessions opened before this migration count as never checked (0): they step up once.
ALTER TABLE `portal_sessions` ADD `passkey_verified_at` integer DEFAULT 0 NOT NULL;
