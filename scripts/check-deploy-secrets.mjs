#!/usr/bin/env node
// `npm run deploy` runs this first: the deploy stops, naming the secret, when
// the Worker lacks one production needs, rather than going live and refusing
// every request with 503 service_misconfigured.
import { spawnSync } from "node:child_process";
import { missingFrom } from "./lib/deploy-secrets.mjs";

const run = spawnSync("node_modules/.bin/wrangler", ["secret", "list", "--format", "json"], { encoding: "utf8" });
if (run.status !== 0) {
  console.error(`Could not list the Worker's secrets (wrangler secret list exited ${run.status}):\n${run.stderr}`);
  process.exit(1);
}
const { required, optional } = missingFrom(run.stdout);
for (const name of optional) console.warn(`Note: secret ${name} is not set; the feature it unlocks stays off (ADMIN_TOKEN: the operator API answers 404).`);
if (required.length > 0) {
  console.error(`Refusing to deploy: the secret ${required.join(", ")} is not set. Set it first: ${required.map((n) => `npx wrangler secret put ${n}`).join(" && ")}`);
  process.exit(1);
}
console.log("Secrets present: deploying with DEPLOYMENT=production.");
