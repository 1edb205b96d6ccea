import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error scripts/lib is plain JavaScript without declarations (the root tsconfig leaves scripts/ out)
import { waitForTurn } from "../../../scripts/lib/turn.mjs";

// A later suite's wait for its turn (scripts/lib/turn.mjs; scripts/test.mjs sets TEST_TURN_FILE and TEST_RUNNER_PID).
const dir = mkdtempSync(join(tmpdir(), "rfs-turn-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const settled = (promise: Promise<unknown>) => Promise.race([promise.then(() => "went on"), new Promise((r) => setTimeout(() => r("still waiting"), 300))]);

describe("waitForTurn", () => {
  it("goes on at once when the suite was not started ahead (no TEST_TURN_FILE)", async () => {
    expect(await settled(waitForTurn({ env: {} }))).toBe("went on");
  });

  it("waits while the turn file is missing and the runner runs, and goes on once the file is written", async () => {
    const file = join(dir, "e2e-turn");
    const waiting = waitForTurn({ env: { TEST_TURN_FILE: file, TEST_RUNNER_PID: String(process.pid) }, pollMs: 20 });
    expect(await settled(waiting)).toBe("still waiting");
    writeFileSync(file, "");
    expect(await settled(waiting)).toBe("went on");
  });

  it("goes on when the runner that would write the file is gone", async () => {
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.on("exit", resolve));
    expect(await settled(waitForTurn({ env: { TEST_TURN_FILE: join(dir, "never"), TEST_RUNNER_PID: String(gone.pid) }, pollMs: 20 }))).toBe("went on");
  });
});
