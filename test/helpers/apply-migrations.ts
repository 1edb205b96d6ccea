import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Setup files run before every test file; applying is idempotent. The same migrations apply to the sandbox's
// own database (DB_SANDBOX, docs/capacity.md), as `npm run deploy` applies them to every database of an environment.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_SANDBOX, env.TEST_MIGRATIONS);
