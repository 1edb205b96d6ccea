import { defineConfig } from "vitest/config";

// One of the two suites of the runner's "both at once" test (test/unit/test-runner.test.ts).
export default defineConfig({ test: { root: import.meta.dirname, include: ["second.rendezvous.ts"], environment: "node" } });
