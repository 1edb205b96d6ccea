import type { Band } from "./values";

/**
 * Arithmetic on ordered bands, shared by the figure rules and the matcher.
 * Bounds: `min` inclusive, `max` exclusive, `max: null` for the open top band.
 */

export function findBand<T extends string>(bands: readonly Band<T>[], value: string | null | undefined): Band<T> | null {
  return bands.find((b) => b.value === value) ?? null;
}

/** Position in the list; comparing ranks compares bands (`below_500` < `740_plus`). */
export function bandRank(bands: readonly Band[], value: string): number {
  return bands.findIndex((b) => b.value === value);
}

export type BandFigureBasis = "band_midpoint" | "band_lower_bound";

/**
 * The figure a band stands for: its midpoint, or for the open top band its
 * lower bound (there is no midpoint of "over 250k"), and always the basis
 * that says which, so a band is never presented as a reported number.
 */
export function bandFigure(band: Band): { value: number; basis: BandFigureBasis } {
  return band.max === null ? { value: band.min, basis: "band_lower_bound" } : { value: (band.min + band.max) / 2, basis: "band_midpoint" };
}
