import { expect, it } from "vitest";

throw new Error("this module cannot load");
it("never collected", () => expect(1).toBe(1));
