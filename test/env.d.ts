import type { Secrets } from "../src/lib/env";

declare global {
  // getQueueResult (cloudflare:test) answers this type, which @cloudflare/workers-types declares only in
  // its experimental entry; the suite checks against the stable one, so the shape is repeated here.
  interface QueueRetryBatch {
    retry: boolean;
    delaySeconds?: number;
  }
  interface QueueRetryMessage {
    msgId: string;
    delaySeconds?: number;
  }
  interface FetcherQueueResult {
    outcome: string;
    ackAll: boolean;
    retryBatch: QueueRetryBatch;
    explicitAcks: string[];
    retryMessages: QueueRetryMessage[];
  }
  namespace Cloudflare {
    // The generated Env (worker-configuration.d.ts) plus the secrets the suite sets and its migrations.
    interface Env extends Secrets {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
      /** Seed of the property-based tests; empty picks a fresh one (printed on failure). */
      FUZZ_SEED: string;
      /** Runs per property; empty keeps each test's small default. */
      FUZZ_RUNS: string;
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
    /** Every `console.*` use in src/, as "file:line console.method" (test/architecture/console-calls.mjs). */
    consoleCalls: string[];
    /** Absolute paths of the files whose storage test/helpers/storage-reset.ts empties first (test/harness/own-storage.mts). */
    ownStorageFiles: string[];
  }
}
