import { defineConfig } from "vitest/config";

// The end-to-end suite runs in Node and talks HTTP to `wrangler dev`, as an integrator would.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts"],
    globalSetup: ["./test/e2e/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
