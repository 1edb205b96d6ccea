import { asc, eq } from "drizzle-orm";
import type { PanelProduct } from "../../domain/panel/product";
import type { CreditScoreBand, Industry, ProductFamily, Purpose } from "../../domain/reference/values";
import type { Database } from "../client";
import { panelProducts } from "../schema/panel";

type PanelProductRow = typeof panelProducts.$inferSelect;

const toProduct = (row: PanelProductRow): PanelProduct => ({
  id: row.id,
  lenderOrganisationId: row.lenderOrganisationId,
  productFamily: row.productFamily as ProductFamily,
  label: row.label,
  markets: row.markets,
  minAmount: row.minAmount,
  maxAmount: row.maxAmount,
  minMonthlyRevenue: row.minMonthlyRevenue,
  minMonthsTrading: row.minMonthsTrading,
  minCreditScoreBand: row.minCreditScoreBand as CreditScoreBand | null,
  excludedIndustries: row.excludedIndustries as Industry[],
  purposes: row.purposes as Purpose[],
  pricing: row.pricing,
  requires: row.requires,
});

const toRow = (product: PanelProduct, position: number, at: string): PanelProductRow => ({
  lenderOrganisationId: product.lenderOrganisationId,
  id: product.id,
  position,
  productFamily: product.productFamily,
  label: product.label,
  markets: product.markets,
  minAmount: product.minAmount,
  maxAmount: product.maxAmount,
  minMonthlyRevenue: product.minMonthlyRevenue,
  minMonthsTrading: product.minMonthsTrading,
  minCreditScoreBand: product.minCreditScoreBand,
  excludedIndustries: product.excludedIndustries,
  purposes: product.purposes,
  pricing: product.pricing,
  requires: [...(product.requires ?? [])],
  createdAt: at,
});

/**
 * Replaces a lender's whole product list in one batch (delete and inserts
 * commit together), so a reader never sees half a list.
 */
export async function replaceLenderProducts(db: Database, lenderOrganisationId: string, products: PanelProduct[], at: string) {
  const remove = db.delete(panelProducts).where(eq(panelProducts.lenderOrganisationId, lenderOrganisationId));
  // One statement per product keeps each well under D1's bound-parameter limit.
  const inserts = products.map((p, i) => db.insert(panelProducts).values(toRow({ ...p, lenderOrganisationId }, i, at)));
  await db.batch([remove, ...inserts]);
}

export async function listLenderProducts(db: Database, lenderOrganisationId: string) {
  const rows = await db
    .select()
    .from(panelProducts)
    .where(eq(panelProducts.lenderOrganisationId, lenderOrganisationId))
    .orderBy(asc(panelProducts.position))
    .all();
  return rows.map(toProduct);
}

/** The whole panel, every lender, in a stable order. */
export async function listPanel(db: Database) {
  const rows = await db
    .select()
    .from(panelProducts)
    .orderBy(asc(panelProducts.lenderOrganisationId), asc(panelProducts.position))
    .all();
  return rows.map(toProduct);
}
