import { describe, expect, it } from "vitest";
import { dealTakesRequests } from "../../../src/domain/documents/requests";

describe("dealTakesRequests", () => {
  it("is true while the deal is open and false once it is declined or funded", () => {
    expect(dealTakesRequests({ status: "submitted" })).toBe(true);
    expect(dealTakesRequests({ status: "offer_accepted" })).toBe(true);
    expect(dealTakesRequests({ status: "declined" })).toBe(false);
    expect(dealTakesRequests({ status: "funded" })).toBe(false);
  });
});
