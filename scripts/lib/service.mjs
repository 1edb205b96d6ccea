// Starts the service the way an integrator meets it: migrations applied to a
// local D1 state directory, then `wrangler dev` serving HTTP. Used by
// `npm run dev` and by the end-to-end suite.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations } from "./local-migrations.mjs";
import { freePort } from "./local-run.mjs";
import { WRANGLER, wranglerEnv } from "./wrangler-child.mjs";

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
 * The migrations are applied first (applyMigrations, scripts/lib/local-migrations.mjs), which runs no wrangler
 * on a state that records them already: the e2e lanes, the README tour and the bench smoke, whose states are
 * copies of a migrated one, and a second `npm run dev`. A fresh state is migrated, as a
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
    env: wranglerEnv({ logsIn: persistTo }),
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
