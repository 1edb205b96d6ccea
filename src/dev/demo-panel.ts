/**
 * A realistic demo panel: a few demo lender organisations and their
 * products, so every open or integrated market has several product families
 * with limits sensible for its currency. The dev seed loads it through the
 * storage module; tests load it through the operator API.
 *
 * Lender names are internal (they label organisations in the operator API)
 * and never reach a partner: partners see product families and labels only.
 */
import type { PanelProduct, ProductPricing } from "../domain/panel/product";

export type DemoProduct = Omit<PanelProduct, "lenderOrganisationId">;

export interface DemoLender {
  name: string;
  products: DemoProduct[];
}

const EURO_MARKETS = ["IE", "ES", "NL", "BE", "DK", "SE", "PL", "FR"];

const loanPricing = (rate: [number, number], term: [number, number], feePct: number): ProductPricing => ({
  annualRatePct: { min: rate[0], max: rate[1] },
  factorRate: null,
  termMonths: { min: term[0], max: term[1] },
  feePct,
});

const advancePricing = (factor: [number, number], term: [number, number], feePct: number): ProductPricing => ({
  annualRatePct: null,
  factorRate: { min: factor[0], max: factor[1] },
  termMonths: { min: term[0], max: term[1] },
  feePct,
});

const product = (p: Partial<DemoProduct> & Pick<DemoProduct, "id" | "productFamily" | "label" | "markets" | "minAmount" | "maxAmount" | "pricing">): DemoProduct => ({
  minMonthlyRevenue: 0,
  minMonthsTrading: 0,
  minCreditScoreBand: null,
  excludedIndustries: [],
  purposes: [],
  ...p,
});

export const DEMO_LENDERS: readonly DemoLender[] = [
  {
    name: "Demo Lender A",
    products: [
      product({
        id: "gb-term-loan", productFamily: "business_loan", label: "Term loan 12-60 months", markets: ["GB"],
        minAmount: 10_000, maxAmount: 500_000, minMonthlyRevenue: 10_000, minMonthsTrading: 24,
        excludedIndustries: ["gambling", "financial_services"], pricing: loanPricing([7.9, 18.9], [12, 60], 2),
      }),
      product({
        id: "gb-revenue-based", productFamily: "revenue_based_finance", label: "Revenue-based finance 3-12 months", markets: ["GB"],
        minAmount: 5_000, maxAmount: 300_000, minMonthlyRevenue: 15_000, minMonthsTrading: 6,
        excludedIndustries: ["gambling"], purposes: ["working_capital", "cash_flow", "stock_inventory", "marketing", "hiring", "expansion"],
        pricing: advancePricing([1.08, 1.25], [3, 12], 0),
      }),
      product({
        id: "gb-asset-finance", productFamily: "asset_finance", label: "Hire purchase 12-60 months", markets: ["GB"],
        minAmount: 10_000, maxAmount: 1_000_000, minMonthsTrading: 12, purposes: ["equipment", "vehicle"],
        pricing: loanPricing([6.5, 14], [12, 60], 1),
      }),
      product({
        id: "gb-invoice-finance", productFamily: "invoice_finance", label: "Invoice finance facility", markets: ["GB"],
        minAmount: 20_000, maxAmount: 2_000_000, minMonthlyRevenue: 25_000, minMonthsTrading: 12,
        excludedIndustries: ["hospitality", "retail", "ecommerce", "gambling"], purposes: ["working_capital", "cash_flow"],
        pricing: loanPricing([8, 16], [12, 24], 1.5),
      }),
    ],
  },
  {
    name: "Demo Lender B",
    products: [
      product({
        id: "us-merchant-cash-advance", productFamily: "merchant_cash_advance", label: "Merchant cash advance 3-18 months", markets: ["US"],
        minAmount: 5_000, maxAmount: 500_000, minMonthlyRevenue: 10_000, minMonthsTrading: 6, minCreditScoreBand: "500_579",
        excludedIndustries: ["gambling", "real_estate"], pricing: advancePricing([1.15, 1.45], [3, 18], 2.5),
      }),
      product({
        id: "us-line-of-credit", productFamily: "line_of_credit", label: "Revolving line of credit", markets: ["US"],
        minAmount: 10_000, maxAmount: 250_000, minMonthlyRevenue: 15_000, minMonthsTrading: 12, minCreditScoreBand: "670_739",
        excludedIndustries: ["gambling"], pricing: loanPricing([12, 35], [12, 24], 1),
      }),
      product({
        id: "us-term-loan", productFamily: "business_loan", label: "Term loan 12-60 months", markets: ["US"],
        minAmount: 25_000, maxAmount: 1_000_000, minMonthlyRevenue: 20_000, minMonthsTrading: 24, minCreditScoreBand: "670_739",
        excludedIndustries: ["gambling", "financial_services"], pricing: loanPricing([9, 25], [12, 60], 3),
      }),
      product({
        id: "us-equipment-finance", productFamily: "asset_finance", label: "Equipment finance 24-72 months", markets: ["US"],
        minAmount: 10_000, maxAmount: 2_000_000, minMonthsTrading: 12, minCreditScoreBand: "580_669", purposes: ["equipment", "vehicle"],
        pricing: loanPricing([7.5, 20], [24, 72], 1),
      }),
      product({
        id: "ca-merchant-cash-advance", productFamily: "merchant_cash_advance", label: "Merchant cash advance 3-18 months", markets: ["CA"],
        minAmount: 5_000, maxAmount: 300_000, minMonthlyRevenue: 10_000, minMonthsTrading: 6, minCreditScoreBand: "500_579",
        excludedIndustries: ["gambling"], pricing: advancePricing([1.15, 1.4], [3, 18], 2.5),
      }),
      product({
        id: "ca-term-loan", productFamily: "business_loan", label: "Term loan 12-60 months", markets: ["CA"],
        minAmount: 25_000, maxAmount: 750_000, minMonthlyRevenue: 20_000, minMonthsTrading: 24, minCreditScoreBand: "670_739",
        excludedIndustries: ["gambling", "financial_services"], pricing: loanPricing([8.5, 22], [12, 60], 2),
      }),
      product({
        id: "ca-line-of-credit", productFamily: "line_of_credit", label: "Revolving line of credit", markets: ["CA"],
        minAmount: 10_000, maxAmount: 200_000, minMonthlyRevenue: 15_000, minMonthsTrading: 12, minCreditScoreBand: "670_739",
        pricing: loanPricing([11, 30], [12, 24], 1),
      }),
    ],
  },
  {
    name: "Demo Lender C",
    products: [
      product({
        id: "eu-term-loan", productFamily: "business_loan", label: "Term loan 6-48 months", markets: EURO_MARKETS,
        minAmount: 10_000, maxAmount: 350_000, minMonthlyRevenue: 10_000, minMonthsTrading: 12,
        excludedIndustries: ["gambling", "financial_services"], pricing: loanPricing([6.9, 16.9], [6, 48], 2),
      }),
      product({
        id: "eu-revenue-based", productFamily: "revenue_based_finance", label: "Revenue-based finance 3-12 months", markets: EURO_MARKETS,
        minAmount: 5_000, maxAmount: 250_000, minMonthlyRevenue: 8_000, minMonthsTrading: 6,
        excludedIndustries: ["gambling"], purposes: ["working_capital", "cash_flow", "stock_inventory", "marketing", "hiring", "expansion"],
        pricing: advancePricing([1.06, 1.22], [3, 12], 0),
      }),
      product({
        id: "eu-invoice-finance", productFamily: "invoice_finance", label: "Invoice finance facility", markets: ["IE", "NL", "BE", "FR", "ES"],
        minAmount: 20_000, maxAmount: 1_500_000, minMonthlyRevenue: 25_000, minMonthsTrading: 12,
        excludedIndustries: ["hospitality", "retail", "ecommerce", "gambling"], purposes: ["working_capital", "cash_flow"],
        pricing: loanPricing([7, 14], [12, 24], 1.5),
      }),
      product({
        id: "eu-asset-finance", productFamily: "asset_finance", label: "Equipment lease 24-60 months", markets: EURO_MARKETS,
        minAmount: 15_000, maxAmount: 750_000, minMonthsTrading: 12, purposes: ["equipment", "vehicle"],
        pricing: loanPricing([5.9, 12.9], [24, 60], 1),
      }),
    ],
  },
  {
    name: "Demo Lender D",
    products: [
      product({
        id: "au-business-loan", productFamily: "business_loan", label: "Unsecured business loan 6-36 months", markets: ["AU"],
        minAmount: 10_000, maxAmount: 500_000, minMonthlyRevenue: 12_000, minMonthsTrading: 12,
        excludedIndustries: ["gambling"], pricing: loanPricing([9.5, 24], [6, 36], 2.5),
      }),
      product({
        id: "au-line-of-credit", productFamily: "line_of_credit", label: "Revolving line of credit", markets: ["AU"],
        minAmount: 5_000, maxAmount: 150_000, minMonthlyRevenue: 8_000, minMonthsTrading: 6,
        pricing: loanPricing([12, 28], [12, 24], 1),
      }),
      product({
        id: "au-asset-finance", productFamily: "asset_finance", label: "Chattel mortgage 12-60 months", markets: ["AU"],
        minAmount: 15_000, maxAmount: 1_000_000, minMonthsTrading: 12, purposes: ["equipment", "vehicle"],
        pricing: loanPricing([6.9, 14.5], [12, 60], 1),
      }),
      product({
        id: "gb-line-of-credit", productFamily: "line_of_credit", label: "Revolving line of credit", markets: ["GB"],
        minAmount: 5_000, maxAmount: 150_000, minMonthlyRevenue: 8_000, minMonthsTrading: 12,
        excludedIndustries: ["gambling"], pricing: loanPricing([10, 29], [12, 24], 1),
        // A sole trader's line is lent against the owner: a personal guarantee below 100,000.
        requires: [{ field: "significant_persons[].guarantee", when: { entity_types: ["sole_trader"], amount_below: 100_000 } }],
      }),
      product({
        id: "gb-commercial-mortgage", productFamily: "commercial_mortgage", label: "Commercial mortgage 5-25 years", markets: ["GB"],
        minAmount: 150_000, maxAmount: 5_000_000, minMonthlyRevenue: 20_000, minMonthsTrading: 24,
        excludedIndustries: ["gambling"], purposes: ["property", "refinancing"], pricing: loanPricing([5.5, 9.5], [60, 300], 1),
        // Above 250,000 the lender underwrites from six months of the business's bank statements.
        requires: [{ field: "statements.6_months", when: { amount_at_least: 250_000 } }],
      }),
    ],
  },
];
