import { beforeAll, describe, expect, it } from "vitest";

// A file whose setup fails, as a browser test's does without a browser: vitest marks both tests skipped.
describe("a suite whose setup throws", () => {
  beforeAll(() => {
    throw new Error("no browser here: install chromium or set CHROMIUM_PATH");
  });
  it("would check the first thing", () => expect(1).toBe(1));
  it("would check the second thing", () => expect(2).toBe(2));
});
