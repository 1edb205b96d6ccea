/** What a lead must hold before it can be submitted, per market. */
import type { Market, SubmitRequirement } from "../reference/markets";
import { present, type HeldFacts } from "./market-rules";

const REQUIREMENT_PATHS: Record<SubmitRequirement, string> = {
  company_number: "business.company_number",
  entity_type: "business.entity_type",
  monthly_revenue: "trading.monthly_revenue",
  time_in_business: "trading.tib_months",
  credit_score_band: "trading.credit_score_band",
};

/** The market's mandatory fields the lead lacks, as field paths; a band meets a figure's requirement. */
export function missingForSubmit(lead: HeldFacts, market: Market): string[] {
  const { business, trading } = lead;
  const met: Record<SubmitRequirement, boolean> = {
    company_number: present(business?.company_number),
    entity_type: present(business?.entity_type),
    monthly_revenue: present(trading?.monthly_revenue) || present(trading?.monthly_revenue_band),
    time_in_business: present(trading?.tib_months) || present(trading?.time_in_business_band),
    credit_score_band: present(trading?.credit_score_band),
  };
  return market.required_for_submit.filter((r) => !met[r]).map((r) => REQUIREMENT_PATHS[r]);
}
