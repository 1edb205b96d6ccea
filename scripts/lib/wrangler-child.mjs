// How the scripts and tests run wrangler as a child process: the project's own wrangler (the version
// package.json pins), non-interactive (CI=1: no prompts, no browser login), without sending usage
// metrics, and without colour codes in the output they capture or log.

/** The project's wrangler, from the repository's root (every script and test runs there). */
export const WRANGLER = "node_modules/.bin/wrangler";

/** This process's environment, read at the call (a test may have set a variable just before), with those three set. */
export const wranglerEnv = () => ({ ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" });
