/** The evidence of commission disclosure (db/schema/commission.ts): one row per showing, inserted only. */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { Database } from "../client";
import { commissionDisclosures } from "../schema/commission";
import { deals } from "../schema/deals";
import { dealInScope } from "../deals/deals";

type NewDisclosure = typeof commissionDisclosures.$inferInsert;

export const disclosureInsert = (db: Database, row: NewDisclosure) => db.insert(commissionDisclosures).values(row);

/** The showings about a lender's own deal's offers, oldest first; the deal is read in the caller's scope inside the query. */
export async function disclosuresOfDeal(db: Database, scope: Scope, ref: string) {
  const ownDeal = db.select({ ref: deals.ref }).from(deals).where(dealInScope(scope, ref));
  return db
    .select()
    .from(commissionDisclosures)
    .where(and(eq(commissionDisclosures.dealRef, ref), inArray(commissionDisclosures.dealRef, ownDeal)))
    .orderBy(asc(commissionDisclosures.shownAt), asc(commissionDisclosures.id));
}

/**
 * The products a deal was routed for, by reference alone: the commission disclosure prices an offer
 * the business reads in its hub by its deal's product. The offer was read scoped to the business's
 * own lead first (services/hub/offers.ts), and only the product ids leave this function.
 */
export async function productsOfOfferDeal(db: Database, ref: string): Promise<string[]> {
  return (await db.select({ productIds: deals.productIds }).from(deals).where(eq(deals.ref, ref)).get())?.productIds ?? [];
}
