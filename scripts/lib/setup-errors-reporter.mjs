// A vitest reporter for `npm test` (scripts/test.mjs): vitest's JSON report keeps only a file's own
// error, so a `beforeAll` that throws inside a `describe` leaves its tests "skipped" with no reason.
// This writes, per file, the first error of the file or of any of its suites to SETUP_ERRORS_OUT.
import { writeFileSync } from "node:fs";

export default class SetupErrorsReporter {
  onTestRunEnd(testModules) {
    const out = process.env.SETUP_ERRORS_OUT;
    if (!out) return;
    const errors = {};
    for (const module of testModules) {
      const first = [...module.errors(), ...[...module.children.allSuites()].flatMap((s) => s.errors())][0];
      if (first) errors[module.moduleId] = first.message ?? String(first);
    }
    writeFileSync(out, JSON.stringify(errors));
  }
}
