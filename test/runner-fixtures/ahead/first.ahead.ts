import { expect, it } from "vitest";
import { marks } from "./marks";

// Passes only if the second suite's global setup ran while this suite was running (up to 60 s, or MEET_WAIT_MS).
it("sees the second suite set itself up while it runs", { timeout: 70_000 }, async () => {
  const { has, leave } = marks();
  const rounds = Number(process.env.MEET_WAIT_MS ?? 60_000) / 100;
  for (let i = 0; i < rounds && !has("second-set-up"); i++) await new Promise((r) => setTimeout(r, 100));
  expect(has("second-set-up"), "the second suite never set up while the first ran").toBe(true);
  leave("first-done");
});
