/**
 * The order `vitest run` hands files to its two workers. vitest's own order in a fresh clone (no results
 * cache) is by project name, then by file size: the isolated files came last, each with a workerd start of
 * its own then, and the 4-line security.test.ts (47 s) ran last of the shared ones while the other worker had
 * nothing left (docs/testing.md, "What the first invocation costs").
 *
 * Projects stay in blocks: vitest's pool keeps a worker's shared runtime (node, workerd) only while the next
 * file in the queue belongs to the same project, and stops it otherwise, so interleaving projects would
 * start a runtime per switch. The blocks: the node files, then the workerd files (the files that need
 * storage of their own among them, emptied before each: test/harness/own-storage.mts), whose runtime each
 * worker starts once. Inside the workerd block the files of OWN_STORAGE come first: each worker empties its
 * storage before each of them and never after, so the shared files then fill one database from empty, as
 * they did when these files had a project (and a runtime) of their own. A shared file's answer may lean on
 * the rows the others wrote (query-plans' ANALYZE read them: after a reset mid-block it saw a nearly empty
 * `offers` and planned a scan; docs/testing.md, "One workerd project"). Inside each part the longest file goes
 * first (longest processing time first), so the run ends on short files on both workers.
 *
 * A file's expected seconds come from test/harness/file-durations.json (written from vitest's results cache by
 * `npm run test:durations`); a file the table does not know (a new one) counts as UNKNOWN_SECONDS.
 *
 * Not used when `TEST_FILE_ORDER` names files (FileOrderSequencer) or when vitest shuffles the files
 * (`--sequence.shuffle.files`, `npm run test:order`): vitest.config.mts then leaves the sequencer alone.
 */
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** What a file the table does not know is taken to cost: after the long ones, before the many short ones. */
export const UNKNOWN_SECONDS = 2;
/** The blocks, in the order they run; a project not named here runs after them. */
export const PROJECT_BLOCKS = ["node", "workerd"];

export const DURATIONS_FILE = "test/harness/file-durations.json";

export function readDurations(root: string): Record<string, number> {
  try {
    const table = JSON.parse(readFileSync(resolve(root, DURATIONS_FILE), "utf8")) as { files?: Record<string, number> };
    return table.files ?? {};
  } catch {
    return {};
  }
}

/** The expected seconds of one file (its path relative to the root). */
export const expectedSeconds = (durations: Record<string, number>, file: string): number => durations[file] ?? UNKNOWN_SECONDS;

const blockOf = (project: string) => (PROJECT_BLOCKS.includes(project) ? PROJECT_BLOCKS.indexOf(project) : PROJECT_BLOCKS.length);

/** Whether vitest was asked to shuffle the files: then its RandomSequencer must stay in charge. */
export const shufflingFiles = (argv: string[] = process.argv) => argv.some((a) => a.startsWith("--sequence.shuffle"));

export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durations = readDurations(root);
    // Ties (unknown files) keep vitest's usual order.
    const usual = await super.sort(files);
    return usual
      .map((spec, i) => ({
        spec,
        i,
        block: blockOf(spec.project.name),
        // The list vitest.config.mts hands the workerd runtime (test/harness/own-storage.mts), read back, not found again.
        shared: (spec.project.getProvidedContext().ownStorageFiles ?? []).includes(spec.moduleId) ? 0 : 1,
        seconds: expectedSeconds(durations, relative(root, spec.moduleId)),
      }))
      .sort((a, b) => a.block - b.block || a.shared - b.shared || b.seconds - a.seconds || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
