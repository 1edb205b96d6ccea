import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitForTurn } from "../../../scripts/lib/turn.mjs";

// The later suite's global setup, as the e2e suite's does it: prepare (here: leave a mark in RENDEZVOUS_DIR), then wait for its turn.
export default async function setup() {
  const dir = process.env.RENDEZVOUS_DIR;
  if (!dir || !existsSync(dir)) throw new Error("RENDEZVOUS_DIR is not set");
  writeFileSync(join(dir, "second-set-up"), "second-set-up");
  await waitForTurn();
}
