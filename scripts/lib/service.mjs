// Starts the service the way an integrator meets it: migrations applied to a
// local D1 state directory, then `wrangler dev` serving HTTP. Used by
// `npm run dev` and by the end-to-end suite.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./local-run.mjs";
import { WRANGLER, wranglerEnv } from "./wrangler-child.mjs";

const execFileAsync = promisify(execFile);

/** Where wrangler keeps a state's local D1 databases (`--persist-to <dir>`). */
const d1Dir = (persistTo) => join(persistTo, "v3", "d1");
/** The record applyMigrations leaves beside the D1 files: which migrations, with which content, it applied. */
const appliedRecord = (persistTo) => join(d1Dir(persistTo), "rfs-migrations-applied.json");

/** Each migration file's name and the SHA-256 of its content, in order. */
function migrationsFingerprint(migrationsDir = "migrations") {
  return readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, sha256: createHash("sha256").update(readFileSync(join(migrationsDir, name))).digest("hex") }));
}

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
  const database = join(d1Dir(persistTo), "miniflare-D1DatabaseObject");
  if (!existsSync(appliedRecord(persistTo)) || !existsSync(database)) return false;
  if (!readdirSync(database).some((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")) return false;
  try {
    return JSON.stringify(JSON.parse(readFileSync(appliedRecord(persistTo), "utf8"))) === JSON.stringify(migrationsFingerprint(migrationsDir));
  } catch {
    return false;
  }
}

/**
 * `wrangler d1 migrations apply --local` on `persistTo`, as a child process the caller awaits: the event
 * loop stays free meanwhile, so starts that run side by side (the e2e lanes) do not queue behind it.
 * A state whose record shows the same migrations applied (migrationsUpToDate) is left as it is: wrangler
 * would start only to find nothing to apply, seconds of CPU for each `npm run dev` and each test that
 * starts a service from a migrated copy. A new or changed migration file, or a removed database, runs it.
 * @param {string} persistTo
 * @returns {Promise<string>} wrangler's output, or a line saying nothing was applied
 */
export async function applyMigrations(persistTo) {
  mkdirSync(persistTo, { recursive: true });
  if (migrationsUpToDate(persistTo)) return `Migrations: ${persistTo} already has every migration applied (${appliedRecord(persistTo)}).\n`;
  try {
    const { stdout } = await execFileAsync(WRANGLER, ["d1", "migrations", "apply", "rfs", "--local", "--persist-to", persistTo], {
      encoding: "utf8",
      env: wranglerEnv(),
    });
    recordMigrationsApplied(persistTo);
    return stdout;
  } catch (error) {
    throw new Error(
      `migrations failed (${error.code ?? error.signal}):\n${error.stdout ?? ""}\n${error.stderr || error.message}\n` +
        `Before the first release migrations are kept squashed, so local state made by an older checkout ` +
        `cannot be migrated: remove ${persistTo} and run again.`,
    );
  }
}

/**
 * Several fresh states, all migrated: the migrations run once, on the first directory, and the others
 * get a copy of it (the D1 database file with its migrations table). The e2e lanes start from the same
 * empty, migrated database each, for one wrangler process instead of one per lane; each copy carries
 * the record of applied migrations, so starting a service on it runs no wrangler migration.
 * @param {string[]} dirs fresh (empty) state directories
 */
export async function migratedStates(dirs) {
  const [first, ...rest] = dirs;
  if (first === undefined) return;
  await applyMigrations(first);
  for (const dir of rest) cpSync(first, dir, { recursive: true });
}

async function waitUntilServing(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer on ${url} within ${timeoutMs} ms`);
}

/**
 * The vars a local service runs with: every link it hands out (upload_url,
 * signed file links, the hub's own links) starts at the origin it actually
 * serves on, whatever wrangler.toml's default port says. Given vars win.
 * @param {number} port
 * @param {Record<string,string>} vars
 */
export function localVars(port, vars = {}) {
  return { PUBLIC_URL: `http://localhost:${port}`, ...vars };
}

/**
 * `bare`: start as a fresh clone does, ignoring a local `.dev.vars` (wrangler reads no `.dev.vars`
 * when given `--env-file`, and the file given is empty), so only `vars` reach the Worker.
 * The migrations are applied first (applyMigrations), which leaves out `wrangler d1 migrations apply` on a
 * state that records them already: the bench's restart around its seeding, the e2e lanes and the README tour,
 * whose states are copies of a migrated one, and a second `npm run dev`. A fresh state is migrated, as a
 * newcomer's first start is.
 * `inspector`: "free" (the default) gives `wrangler dev` a DevTools port of its own, free just now;
 * "wrangler" leaves it to wrangler (9229, or another when that is taken), as a developer's `npm run dev`
 * expects. Two `wrangler dev` started at the same moment both find 9229 free and one of them then exits 1
 * (the e2e lanes start side by side; cloudflare/workers-sdk's own reports and opennextjs-cloudflare#51
 * describe the same race), so every start the tests or tools make asks for a port of its own.
 * @param {{ port: number, persistTo: string, vars?: Record<string,string>, bare?: boolean, inspector?: "free" | "wrangler", log?: (line: string) => void }} options
 */
export async function startService({ port, persistTo, vars = {}, bare = false, inspector = "free", log = () => {} }) {
  await applyMigrations(persistTo);
  const args = ["dev", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", persistTo, "--show-interactive-dev-session=false"];
  if (inspector === "free") args.push("--inspector-port", String(await freePort()));
  if (bare) {
    const noSecrets = join(persistTo, "bare-start.env");
    writeFileSync(noSecrets, "");
    args.push("--env-file", noSecrets);
  }
  for (const [name, value] of Object.entries(localVars(port, vars))) args.push("--var", `${name}:${value}`);
  const child = spawn(WRANGLER, args, {
    env: wranglerEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout.on("data", (d) => log(String(d)));
  child.stderr.on("data", (d) => log(String(d)));
  const url = `http://localhost:${port}`;
  await waitUntilServing(url, child, 60_000);
  return {
    url,
    sandboxUrl: `http://127.0.0.1:${port}`,
    child,
    stop: () => {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    },
  };
}
