// The migrations of a local state directory (`wrangler dev --persist-to <dir>`): applied before a service
// starts on it, recorded beside the D1 files so a state that has them all is left alone, and copied to
// more fresh states. Used by scripts/lib/service.mjs (every start), `npm test` and the e2e global setup.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { WRANGLER, wranglerEnv } from "./wrangler-child.mjs";

const execFileAsync = promisify(execFile);

/**
 * The local databases (wrangler.toml's top-level `d1_databases`): `DB` and the sandbox's own `DB_SANDBOX`
 * (docs/capacity.md, "The sandbox in its own database"). Every one gets the same migrations.
 */
export const LOCAL_DATABASES = ["rfs", "rfs-sandbox"];

/** Where wrangler keeps a state's local D1 databases (`--persist-to <dir>`). */
const d1Dir = (persistTo) => join(persistTo, "v3", "d1");
/** The folder of the local D1 database files, one `<hash>.sqlite` per database. */
const databaseDir = (persistTo) => join(d1Dir(persistTo), "miniflare-D1DatabaseObject");
/** The record applyMigrations leaves beside the D1 files: which migrations, with which content, it applied. */
const appliedRecord = (persistTo) => join(d1Dir(persistTo), "rfs-migrations-applied.json");

/**
 * wrangler's table of applied migrations, word for word as `wrangler d1 migrations apply` creates it
 * (wrangler 4.86, `initMigrationsTable`; wrangler.toml keeps the default name `d1_migrations`).
 */
const WRANGLER_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

/** The migration files wrangler applies, in its order: every `.sql` of the folder, sorted by name. */
const migrationNames = (migrationsDir) => readdirSync(migrationsDir).filter((name) => name.endsWith(".sql")).sort();

/** Each migration file's name and the SHA-256 of its content, in order. */
function migrationsFingerprint(migrationsDir = "migrations") {
  const migrations = migrationNames(migrationsDir).map((name) => ({ name, sha256: createHash("sha256").update(readFileSync(join(migrationsDir, name))).digest("hex") }));
  // The databases too: a state migrated before the sandbox had its own database is brought up to both.
  return { databases: LOCAL_DATABASES, migrations };
}

/** How many D1 database files the state holds (a fresh state has none). */
function databaseFiles(persistTo) {
  return existsSync(databaseDir(persistTo)) ? readdirSync(databaseDir(persistTo)).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite").length : 0;
}

/** Whether the state holds every local database's file. */
const hasDatabase = (persistTo) => databaseFiles(persistTo) >= LOCAL_DATABASES.length;

/** Records that `persistTo` now holds every migration of `migrationsDir` (applyMigrations, after wrangler succeeded). */
export function recordMigrationsApplied(persistTo, migrationsDir = "migrations") {
  mkdirSync(d1Dir(persistTo), { recursive: true });
  writeFileSync(appliedRecord(persistTo), JSON.stringify(migrationsFingerprint(migrationsDir)));
}

/**
 * Whether `persistTo` already holds every migration of `migrationsDir`, as they are now: its record says
 * applyMigrations applied exactly these files with this content, and the D1 database file is still there.
 * A state copied from a migrated one (migratedStates, the e2e template) carries the record with it.
 */
export function migrationsUpToDate(persistTo, migrationsDir = "migrations") {
  if (!existsSync(appliedRecord(persistTo)) || !hasDatabase(persistTo)) return false;
  try {
    return JSON.stringify(JSON.parse(readFileSync(appliedRecord(persistTo), "utf8"))) === JSON.stringify(migrationsFingerprint(migrationsDir));
  } catch {
    return false;
  }
}

/**
 * What `wrangler d1 migrations apply` runs on a database that has none of the migrations, as one script:
 * its migrations table, then each file followed by the row that records it, the very text wrangler
 * sends for that migration (the file, a new line, `INSERT INTO d1_migrations (name) values ('<name>');`).
 */
export function freshMigrationScript(migrationsDir = "migrations") {
  const parts = [WRANGLER_MIGRATIONS_TABLE];
  for (const name of migrationNames(migrationsDir)) {
    parts.push(`${readFileSync(join(migrationsDir, name), "utf8")}\nINSERT INTO d1_migrations (name) values ('${name}');`);
  }
  return `${parts.join("\n")}\n`;
}

/**
 * Brings `persistTo`'s local D1 database up to the migrations of `migrations/`, as a child process the caller
 * awaits: the event loop stays free meanwhile, so starts that run side by side (the e2e lanes) do not queue.
 * - A state whose record shows the same migrations applied (migrationsUpToDate) is left as it is.
 * - A fresh state (no database yet) gets every migration in one `wrangler d1 execute --local --file`: the
 *   same statements, split by the same wrangler code, as `wrangler d1 migrations apply`, which starts a
 *   local runtime for each migration (16 files: 15 CPU-s and 13 s on this machine, against about 3).
 *   wrangler's `migrations apply` then finds nothing to apply (test/unit/tooling/local-migrations.test.ts).
 *   `npm run dev`'s first start goes this way.
 * - `wranglerApply: true`, and any state that has a database but lacks some migrations, go through
 *   `wrangler d1 migrations apply`, which applies only what is missing. The states the black-box tests
 *   start from are made so (decisions.md: "a fresh local state comes from `wrangler d1 migrations apply`
 *   ... black-box tests start the service that way"): the e2e template (migratedStates).
 * @param {string} persistTo
 * @param {{ wranglerApply?: boolean }} [options]
 * @returns {Promise<string>} wrangler's output, or a line saying nothing was applied
 */
export async function applyMigrations(persistTo, { wranglerApply = false } = {}) {
  mkdirSync(persistTo, { recursive: true });
  if (migrationsUpToDate(persistTo)) return `Migrations: ${persistTo} already has every migration applied (${appliedRecord(persistTo)}).\n`;
  const fresh = !wranglerApply && databaseFiles(persistTo) === 0;
  const script = join(persistTo, "rfs-fresh-migrations.sql");
  if (fresh) writeFileSync(script, freshMigrationScript());
  const argsFor = (name) => (fresh ? ["d1", "execute", name, "--local", "--persist-to", persistTo, "--file", script, "--yes"] : ["d1", "migrations", "apply", name, "--local", "--persist-to", persistTo]);
  try {
    // Each database in turn: the same migrations for the control/live database and the sandbox's. Not both at
    // once: two wrangler runtimes on one state share its SQLite metadata, and one of them then fails with
    // SQLITE_BUSY ("database is locked"; seen 1 run in 4 on 2026-11-29).
    let stdout = "";
    for (const name of LOCAL_DATABASES) stdout += (await execFileAsync(WRANGLER, argsFor(name), { encoding: "utf8", env: wranglerEnv({ logsIn: persistTo }) })).stdout;
    recordMigrationsApplied(persistTo);
    return stdout;
  } catch (error) {
    throw new Error(
      `migrations failed (${error.code ?? error.signal}):\n${error.stdout ?? ""}\n${error.stderr || error.message}\n` +
        `Before the first release migrations are kept squashed, so local state made by an older checkout ` +
        `cannot be migrated: remove ${persistTo} and run again.`,
    );
  } finally {
    rmSync(script, { force: true });
  }
}

/**
 * Several fresh states, all migrated: `wrangler d1 migrations apply` runs once, on the first directory, as
 * decisions.md's black-box start says, and the others get a copy of it (the D1 database file with its
 * migrations table). The e2e lanes start from the same empty, migrated database each, for one wrangler
 * process instead of one per lane; each copy carries the record of applied migrations, so starting a
 * service on it runs no wrangler migration.
 * @param {string[]} dirs fresh (empty) state directories
 */
export async function migratedStates(dirs) {
  const [first, ...rest] = dirs;
  if (first === undefined) return;
  await applyMigrations(first, { wranglerApply: true });
  for (const dir of rest) cpSync(first, dir, { recursive: true });
}
