import type { Bindings } from "../src/lib/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
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
    /** Imports of every module in src/, collected on the Node side (test/architecture/global-setup.mjs). */
    importGraph: import("./architecture/rules").ImportGraph;
  }
}
