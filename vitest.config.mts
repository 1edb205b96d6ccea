import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ADMIN_TOKEN: "test-admin-token",
            SIGNING_SECRET: "test-signing-secret",
            // The webhook receiver of the suite listens on 127.0.0.1 over http.
            ALLOW_PRIVATE_WEBHOOKS: "true",
            // Tests drive dispatch themselves; test/webhooks/dispatch-after-write.test.ts turns it on.
            DISPATCH_AFTER_WRITE: "false",
            DOH_URL: `${inject<string>("dohUrl")}/dns-query`,
            // Property-based tests (test/contract): a fixed seed replays a failure; `npm run fuzz` raises the runs.
            FUZZ_SEED: process.env.FUZZ_SEED ?? "",
            FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
          },
          // Register lookups go to a queue nothing consumes: tests hand messages to the consumer themselves
          // (test/registers/lookups-support.ts), so no answer lands behind a test's back and no lookup leaves the machine.
          queueProducers: { WEBHOOK_QUEUE: "webhook-deliveries-local", REGISTER_LOOKUPS: "register-lookups-held" },
        },
      })),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**", "test/browser/**"],
      setupFiles: ["./test/helpers/apply-migrations.ts"],
      globalSetup: ["./test/webhooks/support/global-setup.mjs", "./test/registers/support/global-setup.mjs", "./test/architecture/global-setup.mjs"],
      // One info line per request (src/lib/logger.ts) would bury the suite's output; tests that read the
      // lines capture the console themselves (test/helpers/logs.ts). Warnings and errors still print.
      onConsoleLog: (log: string) => !log.startsWith('{"level":"info","event":"'),
      maxWorkers: 2,
      // A guard against hangs, not a timing assertion: loops of 120 requests need room on a loaded 2-core machine.
      testTimeout: 20_000,
    },
  };
});
