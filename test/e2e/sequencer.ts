import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The e2e run's order: the files known to take longest start first (longest processing time first),
 * so the lanes finish together instead of one lane running a minute-long file alone at the end.
 * vitest's own sequencer sorts by the durations in its cache, which a clean clone (CI) does not have;
 * there it sorted by file size. The durations are `test/e2e/durations.json` (seconds per file, from a
 * two-lane run; `node scripts/e2e-durations.mjs` rewrites it from the last `npm test` report). A file
 * not listed there starts first, as vitest starts an unknown file first; ties keep the path order.
 */
export const DURATIONS_FILE = new URL("./durations.json", import.meta.url);

export function orderByDuration<T>(files: T[], pathOf: (file: T) => string, seconds: Record<string, number>): T[] {
  const known = (file: T) => seconds[pathOf(file)] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => known(b) - known(a) || (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as Record<string, number>;
    const root = this.ctx.config.root;
    return orderByDuration(files, (f) => relative(root, f.moduleId).split("\\").join("/"), seconds);
  }
}
