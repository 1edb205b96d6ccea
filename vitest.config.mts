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
          },
          // Register lookups go to a queue nothing consumes: tests hand messages to the consumer themselves
          // (test/registers/lookups-support.ts), so no answer lands behind a test's back and no lookup leaves the machine.
          queueProducers: { WEBHOOK_QUEUE: "webhook-deliveries", REGISTER_LOOKUPS: "register-lookups-held" },
        },
      })),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**", "test/browser/**"],
      setupFiles: ["./test/helpers/apply-migrations.ts"],
      globalSetup: ["./test/webhooks/support/global-setup.mjs", "./test/registers/support/global-setup.mjs", "./test/architecture/global-setup.mjs"],
      maxWorkers: 2,
      // A guard against hangs, not a timing assertion: loops of 120 requests need room on a loaded 2-core machine.
      testTimeout: 20_000,
    },
  };
});
