import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { DurationSequencer, shufflingFiles } from "./test/harness/duration-order.mjs";
import { FileOrderSequencer, fileOrder } from "./test/harness/file-order.mjs";
import { useMemoryStorage } from "./test/harness/memory-storage.mjs";
import { uncompressedPoolMessages } from "./test/harness/uncompressed-pool-messages.mjs";
import { installOnceWrappedPrototypes } from "./test/harness/wrapper-prototypes.mjs";
import { ownStorageFiles } from "./test/harness/own-storage.mjs";
import { noDependencySourceMaps } from "./test/harness/no-dependency-source-maps.mjs";

const SOURCE_MAPPING_URL = /\n\/\/[#@] sourceMappingURL=(\S+)\s*$/;

/** A map that vite can use: it exists, and each source is either inlined or on disk. */
function wholeMap(file: string, url: string): boolean {
  try {
    const text = url.startsWith("data:") ? Buffer.from(url.slice(url.indexOf(",") + 1), "base64").toString("utf8") : readFileSync(resolve(dirname(file), url), "utf8");
    const map = JSON.parse(text) as { sources?: string[]; sourcesContent?: (string | null)[]; sourceRoot?: string };
    const base = url.startsWith("data:") ? dirname(file) : dirname(resolve(dirname(file), url));
    return (map.sources ?? []).every((source, i) => map.sourcesContent?.[i] != null || existsSync(resolve(base, map.sourceRoot ?? "", source)));
  } catch {
    return false;
  }
}

/**
 * The workerd project loads dependencies through vite, which follows each file's `sourceMappingURL`
 * and warns when the map or its sources are not shipped (stripe's esm/ names ../src/*.ts it does not
 * publish, typescript.js names a map it does not ship): 221 warning lines for one test file. This loads
 * such dependency files without the dangling comment, so there is nothing to warn about; complete
 * maps are left alone and keep mapping stack traces.
 */
function danglingSourceMaps(): Plugin {
  return {
    name: "rfs:dangling-source-maps",
    enforce: "pre",
    async load(id) {
      const file = id.split("?")[0];
      if (!file.includes("/node_modules/") || !/\.[cm]?js$/.test(file)) return null;
      const code = await readFile(file, "utf8").catch(() => null);
      const comment = code === null ? null : SOURCE_MAPPING_URL.exec(code);
      if (code === null || comment === null || wholeMap(file, comment[1])) return null;
      return { code: code.slice(0, comment.index + 1), map: null };
    },
  };
}


export default defineConfig(async () => {
  // Without it a workerd runtime slows down quadratically with the requests it serves (test/harness/wrapper-prototypes.mts).
  installOnceWrappedPrototypes();
  // Each runtime's D1, Durable Objects and R2 live in memory (/dev/shm), not on disk where SQLite waits for every
  // sync: a new Durable Object cost 50-80 ms on disk, 9 ms in memory (test/harness/memory-storage.mts).
  useMemoryStorage();
  // The pool and the runtimes send their messages over the loopback uncompressed, neither end deflating (test/harness/uncompressed-pool-messages.mts).
  uncompressedPoolMessages();
  const migrations = await readD1Migrations("./migrations");
  // The files whose storage test/helpers/storage-reset.ts empties before they run (test/harness/own-storage.mts).
  const ownStorage = ownStorageFiles(process.cwd());
  const workerd = (name: string, isolate: boolean, include: string[]) => ({
    plugins: [
      // Dependencies whose source maps point at files they do not ship load without the comment (no warnings).
      danglingSourceMaps(),
      // Dependencies, generated code and JSON reach the runtimes without an inlined source map (test/harness/no-dependency-source-maps.mts).
      noDependencySourceMaps(),
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
            DOH_URL: `${inject("dohUrl")}/dns-query`,
            // A resolver that hangs is given up on after 1 s, not a deployment's 3 s (docs/testing.md, "Waits the suite shortens").
            DOH_TIMEOUT_MS: "1000",
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
      name,
      isolate,
      include,
      exclude: ["test/e2e/**", "test/browser/**", "test/unit/**"],
      provide: { ownStorageFiles: ownStorage },
      // The storage reset comes first: before a file of OWN_STORAGE (test/harness/own-storage.mts), and only
      // then, it deletes the D1 database, which apply-migrations then builds again.
      // quiet-info-logs drops the service's info lines (one per request) inside the runtime, before vitest's console
      // sends them to this process; tests that read lines spy on the console and still see every one.
      setupFiles: ["./test/helpers/storage-reset.ts", "./test/helpers/quiet-info-logs.ts", "./test/helpers/apply-migrations.ts", "./test/helpers/file-start.ts"],
      globalSetup: ["./test/webhooks/support/global-setup.mjs", "./test/registers/support/global-setup.mjs", "./test/architecture/global-setup.mjs"],
      // A guard against hangs, not a timing assertion: loops of 120 requests need room on a loaded 2-core machine.
      // With eight test runs at once on 2 cores (load average 35) single tests took 20-23 s and `beforeAll` hooks that
      // load a panel passed vitest's default 10 s, failing tests that pass alone; hooks get the same room as tests.
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  });
  return {
    test: {
      // One invocation, one report: the pure tests (no bindings) run in Node, the rest inside workerd.
      projects: [
        {
          test: {
            name: "node",
            environment: "node",
            include: ["test/unit/**/*.test.ts"],
            // Pure modules: no file leaves state another could see, so they share their process.
            isolate: false,
          },
        },
        // The files of a worker share its runtime (isolate: false): the workerd start and the app's modules are paid once
        // per worker, not once per file. The files are independent of each other (each makes its own organisations and
        // keys, reads only its own rows, settles the outbox before it dispatches, narrows the panel to its lenders;
        // test/helpers/file-start.ts resets module state), and a runtime no longer slows down as it ages now that the pool's
        // wrapper classes stop stacking a proxy per request (test/harness/wrapper-prototypes.mts; docs/testing.md, "What
        // made a shared runtime age"). WORKERD_ISOLATE=1 gives every file a start of its own again, to tell whether a
        // failure comes from sharing. The files that need storage of their own (test/harness/own-storage.mts: the fault
        // sweeps, prequalification.happy) run here too, in the same runtime, emptied before each of them.
        workerd("workerd", process.env.WORKERD_ISOLATE === "1", ["test/**/*.test.ts"]),
      ],
      // Three workers on two cores: with two, the cores were busy about 78 % of the invocation (its tests wait on
      // timers, receivers and the main process's module and RPC service), and a third worker fills that. Paired clean
      // runs on this machine, 2026-11-26: 162, 134, 147 s with two against 134, 128, 124 s with three, about the same
      // CPU (docs/testing.md, "A third worker for the first invocation"). `--maxWorkers=2` gives the two of before.
      maxWorkers: 3,
      // `TEST_FILE_ORDER=a,b` runs the files in that order (replaying an order-dependent failure in one runtime:
      // `npm run test:order -- --files a b`); `--sequence.shuffle.files --sequence.seed=N` shuffles them; otherwise the
      // longest first, projects mixed (test/harness/duration-order.mts, from test/harness/file-durations.json).
      ...(fileOrder().length > 0
        ? { sequence: { sequencer: FileOrderSequencer } }
        : shufflingFiles()
          ? {}
          : { sequence: { sequencer: DurationSequencer } }),
    },
  };
});
