#!/usr/bin/env node
// `npm run deploy -- --env production|staging`: applies the D1 migrations to each
// remote database of the environment (DB, then the sandbox's DB_SANDBOX), then deploys the Worker. Migrations go first and are
// forward-only: each one must keep the running (previous) Worker working.
// Refuses while wrangler.toml still holds the shipped placeholders, or while the
// Worker lacks a secret the deployment needs (scripts/lib/deploy-secrets.mjs).
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs, placeholdersIn, resourcesOf, wrangler } from "./lib/deploy-config.mjs";
import { missingFrom } from "./lib/deploy-secrets.mjs";

/** Stops before touching anything when SIGNING_SECRET is missing; only notes a missing ADMIN_TOKEN. */
function checkSecrets(base, env) {
  const list = wrangler(["secret", "list", "--format", "json", ...base]);
  if (!list.ok) {
    throw new Error(`could not list the Worker's secrets (a first deploy needs them set first: npx wrangler secret put SIGNING_SECRET --env ${env}):\n${list.out}`);
  }
  const { required, optional } = missingFrom(list.out.slice(list.out.indexOf("[")));
  for (const name of optional) console.warn(`Note: secret ${name} is not set; the operator API answers 404 until it is.`);
  // Only names are listed, never values: an ADMIN_TOKEN under 32 random bytes is caught by the Worker
  // itself, which then refuses every request but /health (src/lib/admin-token.ts).
  if (!optional.includes("ADMIN_TOKEN")) console.log("ADMIN_TOKEN is set; the Worker refuses to serve if it is under 32 random bytes (openssl rand -hex 32).");
  if (required.length) throw new Error(`the secret ${required.join(", ")} is not set. Set it first: ${required.map((n) => `npx wrangler secret put ${n} --env ${env}`).join(" && ")}`);
}

/**
 * The command, argv without `node` and the script: 0 when done, 1 (after saying why on stderr) when
 * refused or failed. The tests call it in-process (test/e2e/deploy.e2e.test.ts) as well as spawning the script.
 */
export function main(argv) {
  try {
    const options = parseArgs(argv);
    const r = resourcesOf(options);
    const left = placeholdersIn(r);
    if (left.length) {
      throw new Error(`${options.config} [env.${r.env}] still has placeholders:\n${left.map((l) => `  ${l}`).join("\n")}\nSee docs/deploy.md.`);
    }
    const base = ["--env", r.env, "--config", options.config];
    checkSecrets(base, r.env);
    // The same migrations for every database: the Worker reads each one's tables.
    for (const database of r.databases) {
      if (!wrangler(["d1", "migrations", "apply", database.name, "--remote", ...base], { inherit: true }).ok) {
        throw new Error(`remote migrations of ${database.name} failed; the Worker was not deployed.`);
      }
    }
    if (!wrangler(["deploy", ...base], { inherit: true }).ok) {
      throw new Error("wrangler deploy failed; the migrations above are applied (forward-only), the previous Worker version still serves.");
    }
    console.log(`Deployed ${r.worker} to ${r.routes.join(", ")}. Roll back the Worker with: npx wrangler rollback --env ${r.env}`);
  } catch (error) {
    console.error(`deploy: ${error.message}`);
    return 1;
  }
  return 0;
}

// Run as a command (not imported): the exit status is main's.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) process.exitCode = main(process.argv.slice(2));
