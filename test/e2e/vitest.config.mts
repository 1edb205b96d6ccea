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
    // Each file gets a worker process of its own, with its own fetch connection pool. Sharing the worker
    // (isolate: false) saved about 20 CPU-s of imports, but then a file reused the keep-alive connections
    // the file before it left to the lane: a synchronous step of a few seconds (guides' render) let
    // wrangler dev close them after its ~5 s keep-alive, and the next fetch, written on the closed socket,
    // failed "other side closed" (a clean clone's run, 2026-11-26 17:33; docs/testing.md "A connection
    // closed while the loop was busy").
    isolate: true,
    maxWorkers: lanes,
    // The longest files first (test/e2e/durations.json), so the lanes end together.
    sequence: { sequencer: LongestFirst },
  },
});
