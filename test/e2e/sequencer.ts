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

/**
 * `E2E_FILE_ORDER` (paths relative to the root, comma-separated) forces an order, to replay a lane of a
 * failed run: the files it names first, in its order, then the rest longest first. With `E2E_LANES=1`
 * that is the order the one lane runs them in.
 */
export function forcedOrder<T>(files: T[], pathOf: (file: T) => string, order: string | undefined): T[] {
  const named = (order ?? "").split(",").map((p) => p.trim()).filter(Boolean);
  const rank = (file: T) => {
    const at = named.indexOf(pathOf(file));
    return at === -1 ? named.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as Record<string, number>;
    const root = this.ctx.config.root;
    const pathOf = (f: TestSpecification) => relative(root, f.moduleId).split("\\").join("/");
    return forcedOrder(orderByDuration(files, pathOf, seconds), pathOf, process.env.E2E_FILE_ORDER);
  }
}
