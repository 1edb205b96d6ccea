/**
 * The deals waiting on the lender (domain/deals/work-queue.ts says which and why),
 * scoped in the query to the lender organisation and environment, deleted test deals hidden.
 * The SQL condition is the domain rule's coarse filter; the domain classifies each row.
 */
import { and, asc, count, eq, isNotNull, isNull, notInArray, or } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { Database } from "../client";
import { deals } from "../schema/deals";
import { toDeal } from "./deals";
import { writeOrder } from "../write-order";

const awaitingLender = (scope: Scope) =>
  and(
    eq(deals.lenderOrganisationId, scope.organisationId),
    eq(deals.environment, scope.environment),
    isNull(deals.deletedAt),
    notInArray(deals.lenderStatus, ["funded", "declined"]),
    notInArray(deals.status, ["funded", "declined"]),
    or(isNotNull(deals.signedAt), and(eq(deals.status, "offer_accepted"), isNull(deals.agreementUploadedAt)), eq(deals.lenderStatus, "new")),
  );

/** Up to `limit` deals waiting on the lender, oldest first (the longest waiting at the top of each stage). */
export async function dealsAwaitingLender(db: Database, scope: Scope, limit: number) {
  const rows = await db.select().from(deals).where(awaitingLender(scope)).orderBy(asc(deals.createdAt), asc(writeOrder(deals))).limit(limit).all();
  return rows.map(toDeal);
}

/** How many deals wait on the lender (the count beside "Work queue" in the portal's navigation). */
export async function countDealsAwaitingLender(db: Database, scope: Scope) {
  const row = await db.select({ n: count() }).from(deals).where(awaitingLender(scope)).get();
  return row?.n ?? 0;
}
