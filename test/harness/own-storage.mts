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
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Globs relative to the root: `**` is any number of directories, `*` any name part. */
export const OWN_STORAGE = ["test/faults/**/*.test.ts", "test/prequalification/prequalification.happy.test.ts"];

/** A glob of OWN_STORAGE as a regular expression over a path relative to the root, with `/` separators. */
export function globPattern(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith("**/", i)) {
      source += "(?:[^/]+/)*";
      i += 2;
    } else if (glob[i] === "*") source += "[^/]*";
    else source += glob[i].replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** The files under test/ that OWN_STORAGE names, as absolute paths, sorted. */
export function ownStorageFiles(root: string, globs: string[] = OWN_STORAGE): string[] {
  const patterns = globs.map(globPattern);
  return (readdirSync(join(root, "test"), { recursive: true }) as string[])
    .map((path) => `test/${path.split("\\").join("/")}`)
    .filter((path) => patterns.some((p) => p.test(path)))
    .map((path) => join(root, path))
    .sort();
}
