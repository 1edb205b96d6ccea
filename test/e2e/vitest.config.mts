import { defineConfig } from "vitest/config";
import LongestFirst from "./sequencer.ts";

// The end-to-end and browser suites run in Node and talk HTTP to `wrangler dev`, as integrators would.
// Two lanes by default: two files at a time, each lane with its own `wrangler dev` and state (global
// setup starts one per worker; client.ts `lane()` picks the file's). A browser file waits on Chromium,
// the service and its own child processes for much of its time, so a second lane fills the second
// core. `--maxWorkers=1` (or E2E_LANES=1) runs the files one at a time against one service, as before.
const lanes = Number(process.env.E2E_LANES) || 2;

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts", "test/browser/**/*.browser.test.ts"],
    globalSetup: ["./test/e2e/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    fileParallelism: lanes > 1,
    // The files of a lane share its worker process (isolate: false): vitest, playwright-core and the
    // helpers are imported once per lane, not once per file. Sharing the worker shares fetch's pool, and
    // with keep-alive a file reused connections an earlier one left to the lane: a synchronous step of
    // seconds (guides' render) let wrangler dev close them, and the next fetch, written on the closed
    // socket, failed "other side closed" (2026-11-26 17:33). So the setup file turns keep-alive off in
    // these workers (test/e2e/no-keep-alive.ts; docs/testing.md "e2e workers shared again, fetch without
    // keep-alive"). E2E_ISOLATE=1 gives every file a worker of its own again, to tell whether a failure
    // comes from sharing.
    isolate: process.env.E2E_ISOLATE === "1",
    setupFiles: ["./test/e2e/no-keep-alive.setup.ts", "./test/e2e/docs-screenshots.setup.ts"],
    maxWorkers: lanes,
    // The longest files first (test/e2e/durations.json), so the lanes end together.
    sequence: { sequencer: LongestFirst },
  },
});
