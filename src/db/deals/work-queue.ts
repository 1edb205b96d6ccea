/**
 * The deals waiting on the lender (domain/deals/work-queue.ts says which and why),
 * scoped in the query to the lender organisation and environment, deleted test deals hidden.
 * The SQL condition is the domain rule's coarse filter; the domain classifies each row.
 */
import { and, asc, count, eq, isNotNull, isNull, notInArray, or, sql } from "drizzle-orm";
import { dealMessages } from "../schema/deals";
import { documentRequests } from "../schema/documents";
import type { Scope } from "../../domain/identity/caller";
import type { Database } from "../client";
import { deals } from "../schema/deals";
import { toDeal } from "./deals";
import { writeOrder } from "../write-order";

/** A requested document the client uploaded and the lender has not taken yet. */
const documentsArrived = sql<number>`exists (select 1 from ${documentRequests} where ${documentRequests.dealRef} = ${deals.ref} and ${documentRequests.status} = 'uploaded')`;
/** The client's latest message is newer than the lender's latest (or the lender never wrote). */
const clientReplied = sql<number>`coalesce((select max(${dealMessages.createdAt}) from ${dealMessages} where ${dealMessages.dealRef} = ${deals.ref} and ${dealMessages.direction} = 'borrower_to_lender'), '') > coalesce((select max(${dealMessages.createdAt}) from ${dealMessages} where ${dealMessages.dealRef} = ${deals.ref} and ${dealMessages.direction} = 'lender_to_borrower'), '')`;

const awaitingLender = (scope: Scope, assignee?: string) =>
  and(
    eq(deals.lenderOrganisationId, scope.organisationId),
    eq(deals.environment, scope.environment),
    isNull(deals.deletedAt),
    notInArray(deals.lenderStatus, ["funded", "declined"]),
    notInArray(deals.status, ["funded", "declined"]),
    or(isNotNull(deals.signedAt), and(eq(deals.status, "offer_accepted"), isNull(deals.agreementUploadedAt)), eq(deals.lenderStatus, "new"), eq(deals.lenderStatus, "in_review"), documentsArrived, clientReplied),
    assignee ? eq(deals.assigneeMemberId, assignee) : undefined,
  );

/** Up to `limit` deals waiting on the lender, oldest first (the longest waiting at the top of each stage). */
/** `assignee`: only the deals assigned to that member (the queue's "Mine"). */
export async function dealsAwaitingLender(db: Database, scope: Scope, limit: number, assignee?: string) {
  const rows = await db
    .select({ deal: deals, documentsArrived, clientReplied })
    .from(deals)
    .where(awaitingLender(scope, assignee))
    .orderBy(asc(deals.createdAt), asc(writeOrder(deals)))
    .limit(limit)
    .all();
  return rows.map((r) => ({ ...toDeal(r.deal), assigneeMemberId: r.deal.assigneeMemberId, signals: { documentsArrived: Boolean(r.documentsArrived), clientReplied: Boolean(r.clientReplied) } }));
}

/** How many deals wait on the lender (the count beside "Work queue" in the portal's navigation). */
export async function countDealsAwaitingLender(db: Database, scope: Scope) {
  const row = await db.select({ n: count() }).from(deals).where(awaitingLender(scope)).get();
  return row?.n ?? 0;
}
