import { defineConfig } from "vitest/config";

// Fixture suites for the runner's own test (test/unit/test-runner.test.ts). Named *.fixture.ts so no
// normal glob picks them up; each is run alone through scripts/test.mjs and its verdict asserted.
export default defineConfig({
  test: { root: import.meta.dirname, include: ["*.fixture.ts"], environment: "node" },
});
