/**
 * Rules that depend on the lead's market, checked on the lead as it will be
 * stored (after a PATCH merge too, so a change of country re-checks everything).
 */
import type { Market, SubmitRequirement } from "../reference/markets";
import { companyTypesFor } from "../reference/values";
import type { Lead, LeadParts } from "./types";

export interface FieldProblem {
  field: string;
  message: string;
}

type Held = Pick<Lead, "business" | "trading" | "funding">;

const present = (v: unknown) => v !== null && v !== undefined;

/** Fields the market does not have, or values it does not accept. */
export function marketProblems(lead: Held, market: Market): FieldProblem[] {
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

const REQUIREMENT_PATHS: Record<SubmitRequirement, string> = {
  company_number: "business.company_number",
  entity_type: "business.entity_type",
  monthly_revenue: "trading.monthly_revenue",
  time_in_business: "trading.time_in_business",
  credit_score_band: "trading.credit_score_band",
};

/** The market's mandatory fields the lead lacks, as field paths; a band meets a figure's requirement. */
export function missingForSubmit(lead: Held, market: Market): string[] {
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

const MERGED_OBJECTS = ["channel", "business", "contact", "funding", "trading", "consent"] as const;

function mergeObject<T extends object>(held: T | null, patch: T | null | undefined): T | null {
  if (patch === undefined) return held;
  if (patch === null) return null;
  const out: Record<string, unknown> = { ...(held ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const heldValue = out[key];
    // One nested level (business.vat) merges the same way.
    if (value !== null && typeof value === "object" && !Array.isArray(value) && heldValue && typeof heldValue === "object") {
      out[key] = mergeObject(heldValue as object, value as object);
    } else if (value === null) {
      delete out[key];
    } else {
      out[key] = value;
    }
  }
  return out as T;
}

/**
 * A PATCH applied to the held parts: nested objects merge key by key, `null`
 * clears a key (or a whole part), absent keys are untouched, and the list of
 * significant persons is replaced whole.
 */
export function mergeParts(held: Pick<Lead, "partnerReference" | "significantPersons" | (typeof MERGED_OBJECTS)[number]>, patch: LeadParts) {
  const merged = { ...held };
  for (const part of MERGED_OBJECTS) {
    (merged as Record<string, unknown>)[part] = mergeObject(held[part] as object | null, patch[part] as object | null | undefined);
  }
  if (patch.partner_reference !== undefined) merged.partnerReference = patch.partner_reference;
  if (patch.significant_persons !== undefined) merged.significantPersons = patch.significant_persons ?? [];
  return merged;
}
