import { expect, it } from "vitest";

it("adds up", () => expect(1 + 1).toBe(2));
it("gives up at run time", (ctx) => {
  ctx.skip();
  expect(true).toBe(false);
});
