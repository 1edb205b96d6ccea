import { describe, expect, it } from "vitest";
import { bandFigure, bandRank, findBand } from "../../../src/domain/reference/bands";
import { CREDIT_SCORE_BANDS, REVENUE_BANDS, TIME_IN_BUSINESS_BANDS } from "../../../src/domain/reference/values";

describe("bands", () => {
  it("gives the midpoint of a bounded band and says so", () => {
    expect(bandFigure(findBand(REVENUE_BANDS, "10k_25k")!)).toEqual({ value: 17_500, basis: "band_midpoint" });
  });
  it("gives the lower bound of the open top band and says so", () => {
    expect(bandFigure(findBand(REVENUE_BANDS, "over_250k")!)).toEqual({ value: 250_000, basis: "band_lower_bound" });
  });
  it("tiles each band list without gap or overlap: a band's exclusive upper bound is the next one's inclusive lower bound", () => {
    for (const bands of [TIME_IN_BUSINESS_BANDS, REVENUE_BANDS]) {
      bands.slice(1).forEach((band, i) => expect(band.min, band.value).toBe(bands[i].max));
      expect(bands[bands.length - 1].max).toBeNull();
    }
    expect(findBand(TIME_IN_BUSINESS_BANDS, "6m_12m")).toMatchObject({ min: 6, max: 12 });
  });
  it("orders bands by rank", () => {
    expect(bandRank(CREDIT_SCORE_BANDS, "below_500")).toBeLessThan(bandRank(CREDIT_SCORE_BANDS, "740_plus"));
    expect(findBand(CREDIT_SCORE_BANDS, "nonsense")).toBeNull();
  });
});
