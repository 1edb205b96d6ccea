#!/usr/bin/env node
// `npm run deploy:setup -- --env production|staging`: creates the environment's
// D1 databases (DB and the sandbox's DB_SANDBOX), webhook queue with its dead-letter queue, and documents bucket
// on the Cloudflare account wrangler is logged in to (`npx wrangler login`).
// Safe to run again: what exists is kept. Prints what to paste into wrangler.toml.
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs, placeholdersIn, resourcesOf, wrangler } from "./lib/deploy-config.mjs";

const ALREADY_EXISTS = /already exists|already taken|already in use/i;

function create(what, args) {
  const run = wrangler(args);
  if (run.ok) return console.log(`  created ${what}`);
  if (ALREADY_EXISTS.test(run.out)) return console.log(`  ${what} exists; kept`);
  console.error(run.out);
  throw new Error(`could not create ${what}; is wrangler logged in (npx wrangler login / CLOUDFLARE_API_TOKEN)?`);
}

/** Each database's id on the account, from one `wrangler d1 list`. */
function databaseIds(names) {
  const run = wrangler(["d1", "list", "--json"]);
  if (!run.ok) throw new Error(`wrangler d1 list failed:\n${run.out}`);
  const list = JSON.parse(run.out.slice(run.out.indexOf("[")));
  return names.map((name) => {
    const found = list.find((d) => d.name === name);
    if (!found) throw new Error(`D1 database ${name} is not on the account after creating it.`);
    return found.uuid;
  });
}

/**
 * The command, argv without `node` and the script: 0 when done, 1 (after saying why on stderr) when
 * refused or failed. The tests call it in-process (test/e2e/deploy.e2e.test.ts) as well as spawning the script.
 */
export function main(argv) {
  try {
    const options = parseArgs(argv);
    const r = resourcesOf(options);
    console.log(`Setting up ${r.env} (Worker ${r.worker})`);
    for (const database of r.databases) create(`D1 database ${database.name}`, ["d1", "create", database.name]);
    // The dead-letter queue first: the consumer names it.
    create(`queue ${r.deadLetterQueue} (dead letters)`, ["queues", "create", r.deadLetterQueue]);
    create(`queue ${r.queue}`, ["queues", "create", r.queue]);
    create(`queue ${r.registerQueue} (register lookups)`, ["queues", "create", r.registerQueue]);
    create(`R2 bucket ${r.bucket}`, ["r2", "bucket", "create", r.bucket]);
    const ids = databaseIds(r.databases.map((d) => d.name));
    const databases = r.databases.map((d, i) => ({ ...d, id: ids[i] }));
    const left = placeholdersIn({ ...r, databases });
    const pastes = databases.map((d, i) =>
      d.id === r.databases[i].id
        ? `wrangler.toml already has database_id ${d.id} for ${d.name}.`
        : `Paste into ${options.config}, under the [[env.${r.env}.d1_databases]] of binding ${d.binding} (database_name = "${d.name}"):\n\n    database_id = "${d.id}"`,
    );
    console.log(`
Done. ${pastes.join("\n\n")}
${left.length ? `\nStill to edit in ${options.config} ([env.${r.env}], lines marked EDIT):\n${left.map((l) => `    ${l}`).join("\n")}\n` : ""}
Secrets (asked for interactively, never in a file):
    openssl rand -hex 32          # the operator token: keep it, then paste it at the next prompt
    npx wrangler secret put ADMIN_TOKEN --env ${r.env}
    openssl rand -hex 32 | npx wrangler secret put SIGNING_SECRET --env ${r.env}
  ADMIN_TOKEN must be at least 32 random bytes: a shorter or patterned one makes the Worker refuse
  every request but /health (docs/operations.md, "The token rules").

Then deploy (remote migrations, then the Worker):
    npm run deploy -- --env ${r.env}
`);
  } catch (error) {
    console.error(`deploy:setup: ${error.message}`);
    return 1;
  }
  return 0;
}

// Run as a command (not imported): the exit status is main's.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) process.exitCode = main(process.argv.slice(2));
