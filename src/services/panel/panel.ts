import { listLenderProducts, replaceLenderProducts } from "../../db/panel/panel";
import type { PanelProduct } from "../../domain/panel/product";
import type { Requirement } from "../../domain/panel/requirements";
import type { Market } from "../../domain/reference/markets";
import type { CreditScoreBand, Industry, ProductFamily, Purpose } from "../../domain/reference/values";
import { Refusal } from "../../lib/refusal";
import { newId } from "../../lib/ids";
import { invalidatePanelCache } from "./panel-cache";
import { requireOrganisation } from "../identity/organisations";
import { isoNow, type Deps } from "../deps";

/** A product as the operator writes it, after validation (markets already resolved). */
export interface ProductSpec {
  id?: string;
  product_family: ProductFamily;
  label: string;
  markets: Market[];
  min_amount: number;
  max_amount: number;
  min_monthly_revenue: number;
  min_months_trading: number;
  min_credit_score_band: CreditScoreBand | null;
  excluded_industries: Industry[];
  purposes: Purpose[];
  pricing: {
    annual_rate_pct?: { min: number; max: number };
    factor_rate?: { min: number; max: number };
    term_months: { min: number; max: number };
    fee_pct: number;
  };
  requires: Requirement[];
}

/** Explicit mapping from the operator's body to the domain product: nothing passes through unnamed. */
export function productFromSpec(lenderOrganisationId: string, spec: ProductSpec): PanelProduct {
  return {
    id: spec.id ?? newId("prd"),
    lenderOrganisationId,
    productFamily: spec.product_family,
    label: spec.label,
    markets: [...new Set(spec.markets.map((m) => m.country))],
    minAmount: spec.min_amount,
    maxAmount: spec.max_amount,
    minMonthlyRevenue: spec.min_monthly_revenue,
    minMonthsTrading: spec.min_months_trading,
    minCreditScoreBand: spec.min_credit_score_band,
    excludedIndustries: [...new Set(spec.excluded_industries)],
    purposes: [...new Set(spec.purposes)],
    pricing: {
      annualRatePct: spec.pricing.annual_rate_pct ?? null,
      factorRate: spec.pricing.factor_rate ?? null,
      termMonths: spec.pricing.term_months,
      feePct: spec.pricing.fee_pct,
    },
    requires: spec.requires.map((r) => ({ field: r.field, ...(r.when ? { when: { ...r.when } } : {}) })),
  };
}

async function requireLender(deps: Deps, organisationId: string) {
  const organisation = await requireOrganisation(deps, organisationId);
  if (organisation.kind !== "lender") {
    throw new Refusal("invalid_request", `Organisation ${organisationId} is a partner organisation; only lender organisations hold panel products.`, {
      field: "param.id",
    });
  }
  return organisation;
}

/** Replaces the lender's whole list; this isolate's panel cache forgets the old one at once. */
export async function setLenderProducts(deps: Deps, organisationId: string, specs: ProductSpec[]) {
  await requireLender(deps, organisationId);
  const products = specs.map((spec) => productFromSpec(organisationId, spec));
  await replaceLenderProducts(deps.db, organisationId, products, isoNow(deps));
  invalidatePanelCache();
  return products;
}

export async function lenderProducts(deps: Deps, organisationId: string) {
  await requireLender(deps, organisationId);
  return listLenderProducts(deps.db, organisationId);
}
