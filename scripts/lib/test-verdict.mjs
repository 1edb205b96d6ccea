// The verdict of `npm test` (scripts/test.mjs) on one vitest run: its exit status and its JSON report
// (run with --includeTaskLocation, so a skipped test can be found in its source).
import { relative } from "node:path";

/** A skip the code means: `.skip`, `.skipIf`, `.runIf` or `.todo` with a `// reason` on the same line. */
const SKIP_ON_PURPOSE = /\.(skip|skipIf|runIf|todo)\b.*\/\/\s*\S+/;

const firstLine = (text) => String(text ?? "").split("\n").find((l) => l.trim() !== "")?.trim() ?? "(no message)";

function skippedOnPurpose(test, source) {
  if (!source) return false;
  const lines = source.split("\n");
  if (test.location && SKIP_ON_PURPOSE.test(lines[test.location.line - 1] ?? "")) return true;
  // A skipped describe: the line that declares one of the test's suites, by its title.
  return test.ancestorTitles.some((title) => lines.some((l) => l.includes(title) && /\bdescribe\b/.test(l) && SKIP_ON_PURPOSE.test(l)));
}

/**
 * @param {{suite: string, exitStatus: number | string | null, report?: any, setupErrors?: Record<string, string>, unhandledErrors?: string[], readSource: (file: string) => string}} run
 *   setupErrors: per file, the first error of the file or one of its suites (scripts/lib/setup-errors-reporter.mjs)
 *   unhandledErrors: the run's errors outside any test, e.g. "Worker exited unexpectedly" when a worker dies
 * @returns {{suite: string, passed: number, skippedOnPurpose: number, skipped: number, failures: {file?: string, test?: string, reason: string}[]}}
 */
export function judge({ suite, exitStatus, report, setupErrors = {}, unhandledErrors = [], readSource }) {
  const outcome = { suite, passed: 0, skipped: 0, skippedOnPurpose: 0, failures: [] };
  if (!report) {
    outcome.failures.push({ reason: `suite ${suite}: vitest exited ${exitStatus} and wrote no report (it could not start; see its output above)` });
    return outcome;
  }
  for (const file of report.testResults) {
    let source;
    try {
      source = readSource(file.name);
    } catch {
      source = undefined;
    }
    const setupError = file.message || setupErrors[file.name];
    const setupFailed = file.status === "failed" && setupError;
    let counted = 0;
    for (const test of file.assertionResults) {
      const name = test.fullName || test.title;
      if (test.status === "passed") outcome.passed += 1;
      else if (test.status === "failed") {
        outcome.failures.push({ file: file.name, test: name, reason: firstLine(test.failureMessages[0]) });
        counted += 1;
      } else if (test.status === "pending") {
        // Never settled: the file's worker stopped under it (a crashed workerd, a killed fork). Not a skip.
        outcome.failures.push({ file: file.name, test: name, reason: `did not finish: ${firstLine(unhandledErrors[0] ?? "its worker stopped before the test ended")}` });
        counted += 1;
      } else {
        // skipped or todo
        outcome.skipped += 1;
        if (setupFailed) {
          outcome.failures.push({ file: file.name, test: name, reason: `did not run: ${firstLine(setupError)}` });
          counted += 1;
        } else if (skippedOnPurpose(test, source)) outcome.skippedOnPurpose += 1;
        else {
          outcome.failures.push({ file: file.name, test: name, reason: "skipped, but the code does not skip it on purpose (`it.skip`/`skipIf` with a `// reason` on its line)" });
          counted += 1;
        }
      }
    }
    // A file that failed without a failed test to show for it: it did not load, or a hook after the tests threw.
    if (file.status === "failed" && counted === 0) outcome.failures.push({ file: file.name, reason: firstLine(setupError || "the file failed") });
  }
  if (exitStatus !== 0 && outcome.failures.length === 0) {
    const why = report.testResults.length === 0 ? "it found no test files" : "no file failed: an unhandled error or a crash; see its output above";
    outcome.failures.push({ reason: `suite ${suite}: vitest exited ${exitStatus} (${why})` });
  }
  return outcome;
}

/** The closing lines of the run; the very last is `N passed, N failed`. */
export function summarise(outcomes, root) {
  const failures = outcomes.flatMap((o) => o.failures);
  const passed = outcomes.reduce((n, o) => n + o.passed, 0);
  const skipped = outcomes.reduce((n, o) => n + o.skipped, 0);
  const onPurpose = outcomes.reduce((n, o) => n + o.skippedOnPurpose, 0);
  const lines = [];
  if (failures.length) {
    lines.push("Failed:");
    const byFile = new Map();
    for (const f of failures) {
      const key = f.file ? relative(root, f.file) : "";
      byFile.set(key, [...(byFile.get(key) ?? []), f]);
    }
    for (const [file, list] of byFile) {
      if (file) lines.push(`  ${file}`);
      for (const f of list) lines.push(`${file ? "    " : "  "}${f.test ? `${f.test}: ` : ""}${f.reason}`);
    }
  }
  lines.push(`${skipped} skipped (${onPurpose} on purpose)`);
  lines.push(`${passed} passed, ${failures.length} failed`);
  return { lines, passed, failed: failures.length };
}
