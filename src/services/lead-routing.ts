/**
 * The one door between lead submission and the matcher.
 *
 * STAND-IN: the matcher (src/domain/matcher.ts, over the lender panel products)
 * is being built separately. Until it replaces the body of `matchLead`, no
 * panel is consulted, so nothing matches and every submitted lead is answered
 * `out_of_scope` with the reason `matcher_not_connected`. Inventing options here
 * would tell partners about funding that does not exist. Submit calls only this
 * function, so swapping in the real matcher changes nothing else.
 */
import type { Market } from "../domain/reference/markets";
import type { ResolvedFigures } from "../domain/figures";
import type { LeadOption } from "../domain/leads/types";

export interface LeadFacts {
  market: Market;
  environment: "sandbox" | "live";
  figures: ResolvedFigures;
  industry: string | null;
  purpose: string | null;
  product_family: string | null;
  entity_type: string | null;
}

export interface MatchReason {
  code: string;
  detail: string;
}

export interface LeadMatch {
  matched_options: number;
  options: LeadOption[];
  reasons: MatchReason[];
}

export type LeadMatcher = (facts: LeadFacts) => Promise<LeadMatch> | LeadMatch;

export const matchLead: LeadMatcher = () => ({
  matched_options: 0,
  options: [],
  reasons: [{ code: "matcher_not_connected", detail: "No funding panel is connected to routing yet, so no option matched." }],
});
