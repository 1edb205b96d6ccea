import { expect, it } from "vitest";

it("adds up", () => expect(1 + 1).toBe(2));
it("counts the wrong way", () => expect(2 + 2, "two and two").toBe(5));
