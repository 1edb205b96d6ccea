// With `TEST_SETUP_AHEAD=1 npm test`, a later suite starts with the first one and sets itself up meanwhile
// (the e2e suite's lanes: migrations, `wrangler dev`), then waits here, at the end of its global setup,
// until the suites before it have ended: its tests never run beside another suite's (scripts/test.mjs;
// docs/testing.md, "Setting a later suite up ahead", which says why it is not the default).
import { existsSync } from "node:fs";

/** Whether the process `pid` still runs. */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * Resolves when `npm test` says it is this suite's turn: the file named by TEST_TURN_FILE exists. At once
 * when the suite was not started ahead (no TEST_TURN_FILE: `vitest` run by hand, TEST_AT_ONCE=1, the first
 * suite), or when the runner that would write the file (TEST_RUNNER_PID) is gone.
 * @param {{ env?: NodeJS.ProcessEnv, pollMs?: number }} [options]
 */
export async function waitForTurn({ env = process.env, pollMs = 100 } = {}) {
  const file = env.TEST_TURN_FILE;
  if (!file) return;
  const runner = Number(env.TEST_RUNNER_PID);
  while (!existsSync(file)) {
    if (runner && !running(runner)) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
