import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { ProductPricing } from "../../domain/panel/product";
import type { Requirement } from "../../domain/panel/requirements";
import { organisations } from "./identity";

/**
 * The funding panel: every lender organisation's products. The operator
 * replaces a lender's whole list at once; the matcher reads all of it (through
 * the isolate cache in `services/panel/panel-cache.ts`). One panel serves both
 * environments: the sandbox matches against the same products, locally.
 */
export const panelProducts = sqliteTable(
  "panel_products",
  {
    lenderOrganisationId: text("lender_organisation_id").notNull().references(() => organisations.id),
    /** Stable within the lender, so a lead's routing record keeps meaning across list replacements. */
    id: text("id").notNull(),
    /** Order in the operator's list; the matcher keeps it. */
    position: integer("position").notNull(),
    productFamily: text("product_family").notNull(),
    label: text("label").notNull(),
    /** JSON array of alpha-2 market codes. */
    markets: text("markets", { mode: "json" }).$type<string[]>().notNull(),
    minAmount: real("min_amount").notNull(),
    maxAmount: real("max_amount").notNull(),
    minMonthlyRevenue: real("min_monthly_revenue").notNull(),
    minMonthsTrading: integer("min_months_trading").notNull(),
    minCreditScoreBand: text("min_credit_score_band"),
    excludedIndustries: text("excluded_industries", { mode: "json" }).$type<string[]>().notNull(),
    purposes: text("purposes", { mode: "json" }).$type<string[]>().notNull(),
    pricing: text("pricing", { mode: "json" }).$type<ProductPricing>().notNull(),
    /** JSON array of {field, when?}: what the application must hold (domain/panel/requirements.ts). */
    requires: text("requires", { mode: "json" }).$type<Requirement[]>().notNull().default([]),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.lenderOrganisationId, t.id] }), index("panel_products_lender_position").on(t.lenderOrganisationId, t.position)],
);
