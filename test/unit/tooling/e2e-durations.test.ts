import { describe, expect, it } from "vitest";
import { e2eSeconds } from "../../../scripts/e2e-durations.mjs";

// test/e2e/durations.json orders the e2e lanes longest first (test/e2e/sequencer.ts). It was written from
// the JSON report's start and end times, which leave a file's hooks out: the README tour (its service
// starts in beforeAll) was listed at 8.6 s and dev-log-tokens at 0.9 s while they took 29.8 and 16.2 s,
// so both started last and one lane ended long after the other. vitest's results cache counts the hooks.
const cache: { version: string; results: [string, { duration: number; failed: boolean }][] } = {
  version: "4.1.12",
  results: [
    [":test/e2e/readme.e2e.test.ts", { duration: 71066.6, failed: false }],
    [":test/e2e/leads.e2e.test.ts", { duration: 728.4, failed: false }],
    [":test/browser/docs.browser.test.ts", { duration: 52349.2, failed: false }],
    [":test/e2e/embed-build.e2e.test.ts", { duration: 9000, failed: true }],
    ["workerd:test/leads/leads.test.ts", { duration: 30000, failed: false }],
    ["node:test/unit/tooling/engines.test.ts", { duration: 100, failed: false }],
    [":test/e2e/gone.e2e.test.ts", { duration: 5000, failed: false }],
  ],
};
const exists = (file: string) => file !== "test/e2e/gone.e2e.test.ts";

describe("e2e durations: a file's whole time, hooks included (scripts/e2e-durations.mjs)", () => {
  it("takes each e2e and browser file's duration from vitest's results cache, in seconds", () => {
    const seconds = e2eSeconds(cache, {}, exists);
    expect(seconds["test/e2e/readme.e2e.test.ts"]).toBe(71.1);
    expect(seconds["test/e2e/leads.e2e.test.ts"]).toBe(0.7);
    expect(seconds["test/browser/docs.browser.test.ts"]).toBe(52.3);
  });

  it("leaves out the other configuration's files and files that no longer exist", () => {
    const seconds = e2eSeconds(cache, {}, exists);
    expect(Object.keys(seconds)).not.toContain("test/leads/leads.test.ts");
    expect(Object.keys(seconds)).not.toContain("test/unit/tooling/engines.test.ts");
    expect(Object.keys(seconds)).not.toContain("test/e2e/gone.e2e.test.ts");
  });

  it("keeps the table's figure for a file that failed (a failure can end a file early), and sorts by path", () => {
    const seconds = e2eSeconds(cache, { "test/e2e/embed-build.e2e.test.ts": 0.7, "test/e2e/readme.e2e.test.ts": 8.6 }, exists);
    expect(seconds["test/e2e/embed-build.e2e.test.ts"]).toBe(0.7);
    expect(seconds["test/e2e/readme.e2e.test.ts"]).toBe(71.1);
    expect(Object.keys(seconds)).toEqual([...Object.keys(seconds)].sort());
  });
});
