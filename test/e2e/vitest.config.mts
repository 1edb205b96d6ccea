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
    // Files share their lane's worker process and module graph (playwright-core, vitest's runner, the
    // helpers) instead of a new process per file: every file keeps its state in its own module and puts
    // back what it changes (process.env, console spies), so nothing carries from one file to the next.
    // docs/testing.md "Invocation B: shared workers" has the figures.
    isolate: false,
    maxWorkers: lanes,
    // The longest files first (test/e2e/durations.json), so the lanes end together.
    sequence: { sequencer: LongestFirst },
  },
});
