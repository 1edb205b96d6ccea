// How the scripts run wrangler as a child process: non-interactive (CI=1: no prompts, no browser login),
// without sending usage metrics, and without colour codes in the output they capture or log.

/** This process's environment, read at the call (a test may have set a variable just before), with those three set. */
export const wranglerEnv = () => ({ ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" });
