// How the scripts and tests run wrangler as a child process: the project's own wrangler (the version
// package.json pins), non-interactive (CI=1: no prompts, no browser login), without sending usage
// metrics, and without colour codes in the output they capture or log.
import { join } from "node:path";

/** The project's wrangler, from the repository's root (every script and test runs there). */
export const WRANGLER = "node_modules/.bin/wrangler";

/**
 * This process's environment, read at the call (a test may have set a variable just before), with those three set.
 * `logsIn`: the directory the child works on (a local state, a build's temporary directory); wrangler's debug log
 * then goes to `<logsIn>/wrangler-logs/` (WRANGLER_LOG_PATH) instead of `~/.config/.wrangler/logs/`. wrangler writes
 * every message there whatever the log level, a `wrangler dev` every inspector message of its Worker: about 10 MB
 * and dozens of files per `npm test`, which piled up in the home directory (470 MB on this machine). In the state
 * they are removed with it, and `npm run dev`'s stay beside its state in `.state/dev/wrangler-logs/`.
 * @param {{ logsIn?: string }} [options]
 */
export const wranglerEnv = ({ logsIn } = {}) => ({
  ...process.env,
  CI: "1",
  WRANGLER_SEND_METRICS: "false",
  NO_COLOR: "1",
  ...(logsIn ? { WRANGLER_LOG_PATH: join(logsIn, "wrangler-logs") } : {}),
});
