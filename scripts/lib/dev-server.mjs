// Where `npm run dev` serves, known in one place: `npm run dev` picks its port here and records
// itself while it runs, and `npm run listen` finds it here, saying which source it used.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

export const DEFAULT_PORT = 8787;
// RFS_DEV_STATE moves it (the e2e test that starts `npm run dev` keeps its own state).
export const DEV_STATE = process.env.RFS_DEV_STATE || ".state/dev";
const RUNNING = `${DEV_STATE}/server.json`;

/** `PORT=` of `.dev.vars` (the file wrangler and `npm run dev` read), or undefined. */
export function devVarsPort(file = ".dev.vars") {
  if (!existsSync(file)) return undefined;
  const line = readFileSync(file, "utf8").split("\n").find((l) => /^\s*PORT\s*=/.test(l));
  const port = line?.slice(line.indexOf("=") + 1).trim().replace(/^["']|["']$/g, "");
  return port && /^\d+$/.test(port) ? Number(port) : undefined;
}

const envPort = () => (process.env.PORT && /^\d+$/.test(process.env.PORT) ? Number(process.env.PORT) : undefined);

/** The port `npm run dev` serves on: `PORT` in the environment, else in `.dev.vars`, else 8787. */
export function devPort() {
  return envPort() ?? devVarsPort() ?? DEFAULT_PORT;
}

/** Recorded by `npm run dev` once it serves; removed when it stops. */
export function recordRunning(url) {
  mkdirSync(DEV_STATE, { recursive: true });
  writeFileSync(RUNNING, JSON.stringify({ url, pid: process.pid }));
  return () => rmSync(RUNNING, { force: true });
}

/** The dev server recorded as running, when its process is still alive. */
export function runningServer() {
  if (!existsSync(RUNNING)) return undefined;
  try {
    const { url, pid } = JSON.parse(readFileSync(RUNNING, "utf8"));
    process.kill(pid, 0); // throws when no such process: the record is stale
    return typeof url === "string" ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The service `npm run listen` talks to, and where that came from: `--base-url`, then `PORT`,
 * then the `npm run dev` that is running, then `PORT` in `.dev.vars`, then 8787.
 */
export function serviceUrl(baseUrlFlag) {
  if (baseUrlFlag) return { url: baseUrlFlag, source: "--base-url" };
  const fromEnv = envPort();
  if (fromEnv !== undefined) return { url: `http://localhost:${fromEnv}`, source: "PORT in the environment" };
  const running = runningServer();
  if (running) return { url: running, source: `the running npm run dev (${RUNNING})` };
  const fromFile = devVarsPort();
  if (fromFile !== undefined) return { url: `http://localhost:${fromFile}`, source: "PORT in .dev.vars" };
  return { url: `http://localhost:${DEFAULT_PORT}`, source: `the default port ${DEFAULT_PORT} (no PORT, no .dev.vars PORT, no running npm run dev)` };
}
