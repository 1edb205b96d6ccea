import { defineConfig } from "vitest/config";

// The later of the two suites of the runner's "sets up ahead" test: its global setup waits for its turn, as the e2e suite's does.
export default defineConfig({ test: { root: import.meta.dirname, include: ["second.ahead.ts"], globalSetup: ["./second.setup.mjs"], environment: "node" } });
