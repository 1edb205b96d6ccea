/**
 * Where the workerd runtimes of `vitest run` keep their storage. Miniflare puts each runtime's D1
 * database, Durable Objects (SQLite files) and R2 bucket under `os.tmpdir()`, a fresh directory per
 * runtime, removed when the run ends. On this machine /tmp is on disk, and SQLite syncs every commit
 * and every new Durable Object's file to it: measured under the load of a shared 2-core machine, a
 * request that creates a Durable Object (a failed authentication from a new client address counts
 * against a new per-address bucket) took 50-80 ms on disk and 9 ms in memory, ten of them at once 544
 * ms against 101 ms (docs/testing.md, "What the first invocation costs"). The runtimes' storage is thrown
 * away after the run, so nothing needs it on disk: this points the run's temporary directory at a
 * memory-backed one.
 *
 * `TEST_TMPDIR=<dir>` chooses the directory (`TEST_TMPDIR=/tmp` puts it back on disk); otherwise
 * /dev/shm when it is a writable directory (Linux), else the usual temporary directory. Set for the
 * vitest process and what it starts (the Node project's files, the receivers of the global setups).
 */
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";

const MEMORY = "/dev/shm";

function writableDirectory(dir: string): boolean {
  try {
    if (!statSync(dir).isDirectory()) return false;
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Points TMPDIR at the chosen directory (a folder of its own under /dev/shm); returns it, or undefined when left alone. */
export function useMemoryStorage(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.TEST_TMPDIR || (writableDirectory(MEMORY) ? join(MEMORY, "rfs-vitest") : undefined);
  if (!chosen) return undefined;
  mkdirSync(chosen, { recursive: true });
  env.TMPDIR = chosen;
  return chosen;
}
