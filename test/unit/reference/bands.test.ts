import { describe, expect, it } from "vitest";
import { bandContaining, bandFigure, bandRank, findBand } from "../../../src/domain/reference/bands";
import { CREDIT_SCORE_BANDS, REVENUE_BANDS, TIME_IN_BUSINESS_BANDS } from "../../../src/domain/reference/values";

describe("bands", () => {
  it("gives the midpoint of a bounded band and says so", () => {
    expect(bandFigure(findBand(REVENUE_BANDS, "10k_25k")!)).toEqual({ value: 17_500, basis: "band_midpoint" });
  });
  it("gives the lower bound of the open top band and says so", () => {
    expect(bandFigure(findBand(REVENUE_BANDS, "over_250k")!)).toEqual({ value: 250_000, basis: "band_lower_bound" });
  });
  it("places figures on the inclusive lower and exclusive upper bound", () => {
    expect(bandContaining(TIME_IN_BUSINESS_BANDS, 6)?.value).toBe("6m_12m");
    expect(bandContaining(TIME_IN_BUSINESS_BANDS, 5.99)?.value).toBe("under_6m");
    expect(bandContaining(TIME_IN_BUSINESS_BANDS, 600)?.value).toBe("over_60m");
  });
  it("orders bands by rank", () => {
    expect(bandRank(CREDIT_SCORE_BANDS, "below_500")).toBeLessThan(bandRank(CREDIT_SCORE_BANDS, "740_plus"));
    expect(findBand(CREDIT_SCORE_BANDS, "nonsense")).toBeNull();
  });
});
