// A vitest reporter for `npm test` (scripts/test.mjs): vitest's JSON report keeps only a file's own
// error, so a `beforeAll` that throws inside a `describe` leaves its tests "skipped" with no reason,
// and a worker that dies mid-file (a workerd crash) leaves the file "passed" with its tests "pending".
// This writes to SETUP_ERRORS_OUT, per file, the first error of the file or of any of its suites, and
// the run's unhandled errors ("Worker exited unexpectedly"), so the verdict can name why a test never ran.
import { writeFileSync } from "node:fs";

export default class SetupErrorsReporter {
  onTestRunEnd(testModules, unhandledErrors = []) {
    const out = process.env.SETUP_ERRORS_OUT;
    if (!out) return;
    const files = {};
    for (const module of testModules) {
      const first = [...module.errors(), ...[...module.children.allSuites()].flatMap((s) => s.errors())][0];
      if (first) files[module.moduleId] = first.message ?? String(first);
    }
    const unhandled = unhandledErrors.map((e) => e?.message ?? String(e));
    writeFileSync(out, JSON.stringify({ files, unhandled }));
  }
}
