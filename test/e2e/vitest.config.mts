import { defineConfig } from "vitest/config";

// The end-to-end and browser suites run in Node and talk HTTP to one `wrangler dev`, as integrators would.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts", "test/browser/**/*.browser.test.ts"],
    globalSetup: ["./test/e2e/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
