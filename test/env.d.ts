import type { Bindings } from "../src/lib/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
      /** Seed of the property-based tests; empty picks a fresh one (printed on failure). */
      FUZZ_SEED: string;
      /** Runs per property; empty keeps each test's small default. */
      FUZZ_RUNS: string;
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index");
      durableNamespaces: "RateLimiter";
    }
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    webhookReceiverUrl: string;
    dohUrl: string;
  }
}
