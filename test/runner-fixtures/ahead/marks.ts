import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The folder both suites of the runner's "sets up ahead" test leave their marks in (RENDEZVOUS_DIR, fresh per run). */
export function marks() {
  const dir = process.env.RENDEZVOUS_DIR;
  if (!dir) throw new Error("RENDEZVOUS_DIR is not set");
  return { leave: (name: string) => writeFileSync(join(dir, name), name), has: (name: string) => existsSync(join(dir, name)) };
}
