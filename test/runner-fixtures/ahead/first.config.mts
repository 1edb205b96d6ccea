import { defineConfig } from "vitest/config";

// The first of the two suites of the runner's "sets up ahead" test (test/unit/test-runner.test.ts).
export default defineConfig({ test: { root: import.meta.dirname, include: ["first.ahead.ts"], environment: "node" } });
