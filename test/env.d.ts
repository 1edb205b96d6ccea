import type { Secrets } from "../src/lib/env";

declare global {
  namespace Cloudflare {
    // The generated Env (worker-configuration.d.ts) plus the secrets the suite sets and its migrations.
    interface Env extends Secrets {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    }
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    webhookReceiverUrl: string;
    dohUrl: string;
    registerServerUrl: string;
    /** Imports of every module in src/, collected on the Node side (test/architecture/global-setup.mjs). */
    importGraph: import("./architecture/rules").ImportGraph;
  }
}
