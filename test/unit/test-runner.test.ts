import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// `npm test`'s verdict (scripts/test.mjs) on fixture suites kept outside the normal globs
// (test/runner-fixtures/*.fixture.ts): the exit status and last lines asserted.
function runner(...fixtures: string[]) {
  const run = spawnSync("node", ["scripts/test.mjs", "--config", "test/runner-fixtures/vitest.config.mts", "--", ...fixtures.map((f) => `${f}.fixture.ts`)], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    timeout: 180_000,
  });
  const lines = run.stdout.trimEnd().split("\n");
  return {
    status: run.status,
    lines,
    tail: (n: number) => lines.slice(-n),
    /** A file's lines under "Failed:": its name, then each failure, up to the next file or the counts. */
    failedBlock(fixture: string) {
      const from = lines.indexOf(`  test/runner-fixtures/${fixture}.fixture.ts`);
      if (from === -1) return [];
      const to = lines.findIndex((line, i) => i > from && !line.startsWith("    "));
      return lines.slice(from, to === -1 ? undefined : to);
    },
  };
}

/**
 * The four failing fixtures whose worker survives, in ONE run of the runner (a vitest start each cost seconds):
 * each case reads its own file's block under "Failed:", and the counts are their sum, so a file left out or a
 * passing test not counted still fails its case.
 */
const FAILING_TOGETHER = ["setup-throws", "failing", "skipped-silently", "load-error"];
let failingRun: ReturnType<typeof runner> | undefined;
const failingTogether = () => (failingRun ??= runner(...FAILING_TOGETHER));

// Each run starts a vitest of its own: seconds each on a loaded 2-core machine, over a minute when eight runs share it.
describe("npm test's verdict", { timeout: 180_000 }, () => {
  it("fails every test of a file whose beforeAll throws, naming the file and the setup's error", () => {
    expect(failingTogether().failedBlock("setup-throws")).toEqual([
      "  test/runner-fixtures/setup-throws.fixture.ts",
      "    a suite whose setup throws would check the first thing: did not run: no browser here: install chromium or set CHROMIUM_PATH",
      "    a suite whose setup throws would check the second thing: did not run: no browser here: install chromium or set CHROMIUM_PATH",
    ]);
  });

  it("fails a failing test with the first line of its error", () => {
    expect(failingTogether().failedBlock("failing")).toEqual([
      "  test/runner-fixtures/failing.fixture.ts",
      "    counts the wrong way: AssertionError: two and two: expected 4 to be 5 // Object.is equality",
    ]);
  });

  it("fails a test skipped at run time without a reason in the code", () => {
    expect(failingTogether().failedBlock("skipped-silently")).toEqual([
      "  test/runner-fixtures/skipped-silently.fixture.ts",
      "    gives up at run time: skipped, but the code does not skip it on purpose (`it.skip`/`skipIf` with a `// reason` on its line)",
    ]);
  });

  it("fails a file that cannot load, though it holds no test to count", () => {
    expect(failingTogether().failedBlock("load-error")).toEqual(["  test/runner-fixtures/load-error.fixture.ts", "    this module cannot load"]);
  });

  it("exits 1 and counts them all: the passing tests beside the failing ones (failing, skipped-silently), every skip", () => {
    const run = failingTogether();
    expect(run.status).toBe(1);
    // setup-throws 0 passed, 2 failed (2 skipped); failing 1 passed, 1 failed; skipped-silently 1 passed, 1 failed (1 skipped); load-error 0 passed, 1 failed.
    expect(run.tail(2)).toEqual(["3 skipped (0 on purpose)", "2 passed, 5 failed"]);
    expect(run.lines.filter((line) => line === "Failed:")).toHaveLength(1);
  });

  it("passes a file whose only skip is on purpose, with its reason on the line", () => {
    const run = runner("passing");
    expect(run.status).toBe(0);
    expect(run.lines).not.toContain("Failed:");
    expect(run.tail(2)).toEqual(["1 skipped (1 on purpose)", "1 passed, 0 failed"]);
  });

  it("fails a test whose worker died under it (a crashed workerd), though vitest marks its file passed", () => {
    const run = runner("worker-dies");
    expect(run.status).toBe(1);
    expect(run.tail(5)).toEqual([
      "Failed:",
      "  test/runner-fixtures/worker-dies.fixture.ts",
      "    a file whose worker dies would check something after the crash: did not finish: [vitest-pool]: Worker forks emitted error.",
      "0 skipped (0 on purpose)",
      "0 passed, 1 failed",
    ]);
  });

  it("fails a suite whose vitest cannot start, with no report at all", () => {
    const run = spawnSync("node", ["scripts/test.mjs", "--config", "test/runner-fixtures/no-such.config.mts"], { encoding: "utf8", timeout: 180_000 });
    expect(run.status).toBe(1);
    expect(run.stdout.trimEnd().split("\n").slice(-3)).toEqual([
      "  suite test_runner-fixtures_no-such.config.mts: vitest exited 1 and wrote no report (it could not start; see its output above)",
      "0 skipped (0 on purpose)",
      "0 passed, 1 failed",
    ]);
  });
});
