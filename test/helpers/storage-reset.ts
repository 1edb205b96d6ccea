import { reset } from "cloudflare:test";
import { expect, inject } from "vitest";

// The first setup file of the workerd project (vitest.config.mts), listed before apply-migrations.ts: it runs
// before every file, and empties the runtime's storage before the files of OWN_STORAGE
// (test/harness/own-storage.mts) and no other. Those files read whole tables (test/helpers/storage-snapshot.ts,
// prequalification's "writes nothing") or rely on the demo panel alone, and they share their worker's runtime
// with every other file, so each starts from storage as a runtime of its own would have it. The other files
// need no reset (each reads only its own rows) and keep the rows the files before them wrote.
//
// `reset()` (@cloudflare/vitest-pool-workers) deletes every Durable Object's storage, and Miniflare
// keeps D1 and R2 in Durable Objects too: the D1 database (its tables and `d1_migrations`, which
// apply-migrations.ts then applies again), every R2 object and every KeyAuthority instance (keys'
// cached state and every rate-limit bucket) go. Queues hold no state to reset: the register lookups
// go to a queue nothing consumes, and a webhook message left by the previous file finds no delivery
// in the emptied database and writes nothing.

/** The test file about to run (vitest's worker state, through expect's state); absolute, as vitest names it. */
const file = expect.getState().testPath;
// Without the file's name no file would be told apart: fail loudly rather than skip the reset of the files that need it.
if (!file) throw new Error("storage-reset: vitest did not say which test file runs next (expect.getState().testPath)");
if (inject("ownStorageFiles").includes(file)) await reset();
