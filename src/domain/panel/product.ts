import { marketFor } from "../reference/markets";
import type { CreditScoreBand, Industry, ProductFamily, Purpose } from "../reference/values";
import type { Requirement } from "./requirements";

export interface Range {
  min: number;
  max: number;
}

/**
 * The price ranges a product quotes within; sandbox offers are simulated from
 * them. Exactly one of `annualRatePct` (amortising loans, lines) and
 * `factorRate` (advances: repay amount × factor) is set.
 */
export interface ProductPricing {
  annualRatePct: Range | null;
  factorRate: Range | null;
  termMonths: Range;
  feePct: number;
}

/**
 * One lender product on the panel. Money limits are major units of the
 * currency of the markets it serves (one currency per product, enforced on
 * write, so a limit never means two amounts).
 */
export interface PanelProduct {
  id: string;
  lenderOrganisationId: string;
  productFamily: ProductFamily;
  /** Structural description ("Term loan 6-36 months"); never a provider name. */
  label: string;
  /** Alpha-2 codes of the markets served (`GB`, not `UK`). */
  markets: string[];
  minAmount: number;
  maxAmount: number;
  minMonthlyRevenue: number;
  minMonthsTrading: number;
  /** Applies only in markets that carry a credit score (United States, Canada). */
  minCreditScoreBand: CreditScoreBand | null;
  excludedIndustries: Industry[];
  /** Purposes served; empty means every purpose. */
  purposes: Purpose[];
  pricing: ProductPricing;
  /** What the application must hold for this product, some only under a condition (./requirements.ts); none when absent. */
  requires?: readonly Requirement[];
}

/** The one currency a product's limits are in. */
export const productCurrency = (product: Pick<PanelProduct, "markets">) => marketFor(product.markets[0]).currency;
