/** The sealed payout account of a lender's deal, scoped to the lender and environment in the query; never part of a deal row read. */
import type { Scope } from "../../domain/identity/caller";
import type { Database } from "../client";
import { deals } from "../schema/deals";
import { dealInScope } from "./deals";

export async function sealedAccountOf(db: Database, scope: Scope, ref: string) {
  const row = await db.select({ sealed: deals.accountSealed }).from(deals).where(dealInScope(scope, ref)).get();
  return row?.sealed ?? null;
}
