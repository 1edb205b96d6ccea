/**
 * Rules that depend on the lead's market, checked on the lead as it will be
 * stored (after a PATCH merge too, so a change of country re-checks everything).
 */
import type { Market } from "../reference/markets";
import { companyTypesFor } from "../reference/values";
import type { Lead } from "./types";

export interface FieldProblem {
  field: string;
  message: string;
}

export type HeldFacts = Pick<Lead, "business" | "trading" | "funding">;

export const present = (v: unknown) => v !== null && v !== undefined;

/** Fields the market does not have, or values it does not accept. */
export function marketProblems(lead: HeldFacts, market: Market): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const { business, trading } = lead;
  if (present(trading?.credit_score_band) && market.block !== "us" && market.block !== "ca") {
    problems.push({ field: "trading.credit_score_band", message: `trading.credit_score_band exists only in the US and Canada, not in ${market.name}.` });
  }
  if (present(business?.company_number) && market.register_number_label === null) {
    problems.push({ field: "business.company_number", message: `business.company_number does not exist in ${market.name}.` });
  }
  if (present(business?.vat?.number) && !market.vat_checked) {
    problems.push({ field: "business.vat", message: `business.vat exists only where a VAT register is checked; ${market.name} has none.` });
  }
  const entityType = business?.entity_type;
  if (present(entityType)) {
    const allowed = companyTypesFor(market).map((t) => t.value);
    if (!allowed.includes(entityType!)) {
      problems.push({
        field: "business.entity_type",
        message: `business.entity_type "${entityType}" is not a company type of ${market.name}; one of: ${allowed.join(", ")} (GET /enums/company-types?country=${market.country}).`,
      });
    }
  }
  return problems;
}
