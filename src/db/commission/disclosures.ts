/** The evidence of commission disclosure (db/schema/commission.ts): one row per showing, inserted only. */
import { eq } from "drizzle-orm";
import type { Database } from "../client";
import { commissionDisclosures } from "../schema/commission";
import { deals } from "../schema/deals";

type NewDisclosure = typeof commissionDisclosures.$inferInsert;

export const disclosureInsert = (db: Database, row: NewDisclosure) => db.insert(commissionDisclosures).values(row);


/**
 * The products a deal was routed for, by reference alone: the commission disclosure prices an offer
 * the business reads in its hub by its deal's product. The offer was read scoped to the business's
 * own lead first (services/hub/offers.ts), and only the product ids leave this function.
 */
export async function productsOfOfferDeal(db: Database, ref: string): Promise<string[]> {
  return (await db.select({ productIds: deals.productIds }).from(deals).where(eq(deals.ref, ref)).get())?.productIds ?? [];
}
