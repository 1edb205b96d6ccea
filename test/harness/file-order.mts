/**
 * Runs the test files in the order `TEST_FILE_ORDER` names them (paths relative to the project root,
 * separated by commas), for replaying an order-dependent failure in one shared runtime: the file that
 * leaves something behind first, then the file it breaks (`npm run test:order -- --files a b`,
 * docs/testing.md, "Checking that no file depends on another"). vitest's own sequencer orders by size
 * and past durations, and `--sequence.shuffle.files=false` does not keep the order of the command line.
 * Files the list does not name run after those it does, in vitest's usual order.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export function fileOrder(): string[] {
  return (process.env.TEST_FILE_ORDER ?? "")
    .split(",")
    .map((f) => f.trim().replace(/^\.\//, ""))
    .filter(Boolean);
}

export class FileOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = fileOrder();
    const rank = (spec: TestSpecification) => {
      const i = order.indexOf(relative(this.ctx.config.root, spec.moduleId));
      return i === -1 ? order.length : i;
    };
    const usual = await super.sort(files);
    return usual.map((spec, i) => ({ spec, i })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i).map(({ spec }) => spec);
  }
}
