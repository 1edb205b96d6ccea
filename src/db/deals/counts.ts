/** How many of a lender's deals stand at each `lender_status`: one grouped query, scoped to the lender organisation and environment. */
import { and, count, eq, isNull } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { LenderStatus } from "../../domain/reference/values";
import type { Database } from "../client";
import { deals } from "../schema/deals";

export async function countDealsByLenderStatus(db: Database, scope: Scope): Promise<{ status: LenderStatus; count: number }[]> {
  const rows = await countDealsByLenderStatusQuery(db, scope).all();
  return rows.map((r) => ({ status: r.status as LenderStatus, count: r.count }));
}

export function countDealsByLenderStatusQuery(db: Database, scope: Scope) {
  return db
    .select({ status: deals.lenderStatus, count: count() })
    .from(deals)
    .where(and(eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), isNull(deals.deletedAt)))
    .groupBy(deals.lenderStatus);
}
