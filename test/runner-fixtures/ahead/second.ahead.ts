import { expect, it } from "vitest";
import { marks } from "./marks";

// Passes only if this test runs after the first suite's test ended (no waiting here).
it("runs its tests only after the first suite's", () => {
  expect(marks().has("first-done"), "the second suite's test ran before the first suite's ended").toBe(true);
});
