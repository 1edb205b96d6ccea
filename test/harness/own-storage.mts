/**
 * The workerd files that need storage no other file writes to, and the list of them the runtime is handed.
 *
 * They compare every row of every table before and after a write (test/helpers/storage-snapshot.ts,
 * prequalification's "writes nothing") or count matches against the demo panel alone (faults/queue also
 * settles every waiting event and delivery of the database); another file's rows, or the rows its background
 * work (a queued webhook attempt) still writes, would change their answer. They run in the one `workerd`
 * project with every other file, sharing their worker's runtime, and test/helpers/storage-reset.ts empties
 * that runtime's storage before each of them and before no other file (`reset()` from cloudflare:test: D1,
 * R2 and every Durable Object, rate-limit buckets included; migrations applied again). Breaking a binding
 * needs no runtime of its own: test/helpers/faults.ts wraps the bindings in a new env and leaves the real
 * ones alone. hub/hub-link, which spends the `unattributed` hub bucket on purpose, empties that bucket
 * before and after itself instead.
 *
 * The setup file cannot list files (it runs inside workerd), so vitest.config.mts lists them here, on the
 * Node side, and hands the absolute paths over with `provide("ownStorageFiles")`.
 */
import { globSync } from "tinyglobby";

/** Globs relative to the root (tinyglobby's: `**` is any number of directories, `*` any name part). */
export const OWN_STORAGE = ["test/faults/**/*.test.ts", "test/prequalification/prequalification.happy.test.ts"];

/** The files that `globs` (OWN_STORAGE unless given) name under `root`, as absolute paths, sorted. */
export function ownStorageFiles(root: string, globs: string[] = OWN_STORAGE): string[] {
  return globSync(globs, { cwd: root, absolute: true }).sort();
}
