// What a deployment environment needs on the Cloudflare account, read from
// wrangler.toml (the one place the names live) through wrangler's own reader.
import { spawnSync } from "node:child_process";
import { unstable_readConfig } from "wrangler";
import { WRANGLER } from "./wrangler-child.mjs";

export const PLACEHOLDER_DATABASE_ID = "00000000-0000-0000-0000-000000000000";
export const ENVIRONMENTS = ["production", "staging"];

/**
 * `--env production` / `--env=staging` / `--config path` from argv. There is no default: without
 * `--env` it refuses and lists the environments (the top level of wrangler.toml is the local
 * configuration, never a deployment target).
 */
export function parseArgs(argv) {
  const options = { env: undefined, config: "wrangler.toml" };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = inline ?? argv[++i];
    if (flag === "--env" || flag === "-e") options.env = value;
    else if (flag === "--config" || flag === "-c") options.config = value;
    else throw new Error(`Unknown argument ${argv[i]}; use --env ${ENVIRONMENTS.join("|")} [--config wrangler.toml].`);
  }
  if (options.env === undefined) {
    throw new Error(`choose the environment to deploy with --env; the environments of ${options.config} are: ${ENVIRONMENTS.join(", ")} (e.g. npm run deploy -- --env staging). The top level of ${options.config} is the local configuration and is never deployed.`);
  }
  if (!ENVIRONMENTS.includes(options.env)) throw new Error(`--env must be one of ${ENVIRONMENTS.join(", ")}; got ${options.env}.`);
  return options;
}

/**
 * The D1 bindings every environment has: `DB` (control tables and live data) and `DB_SANDBOX`, the
 * sandbox's own database (docs/capacity.md, "The sandbox in its own database"). Each gets the same migrations.
 */
export const DATABASE_BINDINGS = ["DB", "DB_SANDBOX"];

/** The named resources of one environment. */
export function resourcesOf({ env, config }) {
  const c = unstable_readConfig({ config, env }, { hideWarnings: true });
  const db = c.d1_databases.find((d) => d.binding === "DB");
  const databases = DATABASE_BINDINGS.map((binding) => c.d1_databases.find((d) => d.binding === binding));
  const lacking = DATABASE_BINDINGS.filter((_, i) => !databases[i]);
  if (lacking.length) throw new Error(`[env.${env}] in ${config} lacks the D1 binding ${lacking.join(", ")}.`);
  const producer = c.queues.producers?.find((p) => p.binding === "WEBHOOK_QUEUE");
  const consumer = c.queues.consumers?.find((q) => q.queue === producer?.queue);
  const registerQueue = c.queues.producers?.find((p) => p.binding === "REGISTER_LOOKUPS")?.queue;
  const bucket = c.r2_buckets.find((b) => b.binding === "DOCUMENTS");
  if (!db || !consumer || !producer || !bucket || !registerQueue) throw new Error(`[env.${env}] in ${config} lacks the DB, WEBHOOK_QUEUE consumer/producer, REGISTER_LOOKUPS producer or DOCUMENTS binding.`);
  if (!consumer.dead_letter_queue) throw new Error(`[env.${env}] queue consumer has no dead_letter_queue.`);
  return {
    env,
    worker: c.name,
    database: { name: db.database_name, id: db.database_id },
    /** Every database of the environment, `DB` first: deploy:setup creates each, deploy migrates each. */
    databases: databases.map((d) => ({ binding: d.binding, name: d.database_name, id: d.database_id })),
    queue: producer.queue,
    deadLetterQueue: consumer.dead_letter_queue,
    registerQueue,
    bucket: bucket.bucket_name,
    routes: (c.routes ?? []).map((r) => (typeof r === "string" ? r : r.pattern)),
    publicUrl: c.vars.PUBLIC_URL,
    sandboxHostnames: c.vars.SANDBOX_HOSTNAMES,
  };
}

/** Values still as shipped (example.com hosts, the zero database id): deploying them would fail or serve the wrong host. */
export function placeholdersIn(resources) {
  const left = [];
  for (const database of resources.databases) {
    if (database.id === PLACEHOLDER_DATABASE_ID) left.push(`database_id of ${database.name} (run npm run deploy:setup -- --env ${resources.env})`);
  }
  for (const route of resources.routes) if (/(^|\.)example\.com$/.test(route)) left.push(`route ${route}`);
  if (/example\.com/.test(resources.publicUrl ?? "")) left.push(`PUBLIC_URL ${resources.publicUrl}`);
  if (/example\.com/.test(resources.sandboxHostnames ?? "")) left.push(`SANDBOX_HOSTNAMES ${resources.sandboxHostnames}`);
  return left;
}

/**
 * Runs wrangler (WRANGLER overrides the binary, as the tests do). `inherit`
 * hands the terminal over (progress, confirmations); otherwise the output is
 * captured for the caller to read.
 */
export function wrangler(args, { inherit = false } = {}) {
  const bin = process.env.WRANGLER ?? WRANGLER;
  console.log(`$ wrangler ${args.join(" ")}`);
  const run = spawnSync(bin, args, {
    encoding: "utf8",
    stdio: inherit ? "inherit" : "pipe",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  return { ok: run.status === 0, out: `${run.stdout ?? ""}${run.stderr ?? ""}` };
}
