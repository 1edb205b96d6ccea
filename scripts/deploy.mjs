#!/usr/bin/env node
// `npm run deploy -- --env production|staging`: applies the D1 migrations to the
// remote database, then deploys the Worker. Migrations go first and are
// forward-only: each one must keep the running (previous) Worker working.
// Refuses while wrangler.toml still holds the shipped placeholders.
import { parseArgs, placeholdersIn, resourcesOf, wrangler } from "./lib/deploy-config.mjs";

try {
  const options = parseArgs(process.argv.slice(2));
  const r = resourcesOf(options);
  const left = placeholdersIn(r);
  if (left.length) {
    throw new Error(`${options.config} [env.${r.env}] still has placeholders:\n${left.map((l) => `  ${l}`).join("\n")}\nSee docs/deploy.md.`);
  }
  const base = ["--env", r.env, "--config", options.config];
  if (!wrangler(["d1", "migrations", "apply", r.database.name, "--remote", ...base], { inherit: true }).ok) {
    throw new Error("remote migrations failed; nothing was deployed.");
  }
  if (!wrangler(["deploy", ...base], { inherit: true }).ok) {
    throw new Error("wrangler deploy failed; the migrations above are applied (forward-only), the previous Worker version still serves.");
  }
  console.log(`Deployed ${r.worker} to ${r.routes.join(", ")}. Roll back the Worker with: npx wrangler rollback --env ${r.env}`);
} catch (error) {
  console.error(`deploy: ${error.message}`);
  process.exit(1);
}
