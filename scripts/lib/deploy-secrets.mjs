// Which Worker secrets a production deployment needs, and which of them a
// `wrangler secret list --format json` answer lacks. Kept apart from the CLI
// so the rule can be tested without a Cloudflare account.

/** Without these the production Worker refuses every request but /health (src/lib/signing-secret.ts). */
export const REQUIRED_SECRETS = ["SIGNING_SECRET"];
/**
 * Without these a feature is off, on purpose: no ADMIN_TOKEN, no operator API (404). A set ADMIN_TOKEN
 * must be at least 32 random bytes; `secret list` shows no values, so the Worker checks that itself.
 */
export const OPTIONAL_SECRETS = ["ADMIN_TOKEN"];

/** @param {string} secretListJson the stdout of `wrangler secret list --format json` */
export function missingFrom(secretListJson) {
  const names = new Set(JSON.parse(secretListJson).map((secret) => secret.name));
  return {
    required: REQUIRED_SECRETS.filter((name) => !names.has(name)),
    optional: OPTIONAL_SECRETS.filter((name) => !names.has(name)),
  };
}
