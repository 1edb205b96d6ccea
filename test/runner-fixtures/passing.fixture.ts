import { expect, it } from "vitest";

it("adds up", () => expect(1 + 1).toBe(2));
it.skip("waits for the registers' sandbox", () => expect(true).toBe(false)); // reason: the sandbox is down until 2027
