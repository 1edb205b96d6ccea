/**
 * Deals (offers: offers.ts, messages: deal-messages.ts, lead routing: routing.ts). Every lender read is scoped in the query
 * to the lender organisation AND environment (and hides deleted test deals).
 * Writes are statements for the callers' batches; conditional updates carry a
 * fresh `last_change` token and the statements after them are guarded on it.
 */
import { and, count, desc, eq, inArray, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { Deal, DealStatus } from "../../domain/deals/types";
import type { DeclineReason } from "../../domain/deals/decline";
import type { LeadState, LenderStatus } from "../../domain/reference/values";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { dealRow, type NewDeal } from "../leads/routing";
import { deals, leadRouting, offers, type DealRow } from "../schema/deals";
import { documents } from "../schema/documents";
import type { KeysetPosition } from "../../lib/cursor";
import { writeOrder, writtenBefore } from "../write-order";
import { documentColumn, parsedStatementExists, qualified } from "../documents/parsed-statements";
import { leads } from "../schema/leads";

export const toDeal = (r: DealRow): Deal => ({
  ref: r.ref,
  lenderOrganisationId: r.lenderOrganisationId,
  environment: r.environment,
  leadId: r.leadId,
  partnerOrganisationId: r.partnerOrganisationId,
  test: r.test,
  productIds: r.productIds,
  subject: r.subject,
  status: r.status as DealStatus,
  lenderStatus: r.lenderStatus as LenderStatus,
  statusReason: r.statusReason,
  declineReasons: r.declineReasons ?? [],
  productFamily: r.productFamily,
  fundedAmount: r.fundedAmount,
  accountSubmittedAt: r.accountSubmittedAt,
  accountSummary: r.accountSummary,
  agreementUploadedAt: r.agreementUploadedAt,
  signedAt: r.signedAt,
  signatureVerification: r.signatureVerification,
  repaymentOutcome: r.repaymentOutcome as Deal["repaymentOutcome"],
  repaymentOutcomeAt: r.repaymentOutcomeAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** The lender's own, live (not deleted) deal with this upper-cased ref. */
/** A scope and reference as values, or as drizzle placeholders for a statement built once (db/prepared-batch.ts). */
type BoundScope = { [K in keyof Scope]: Scope[K] | Placeholder };

export const dealInScope = (scope: BoundScope, ref: string | Placeholder) =>
  and(eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), eq(deals.ref, ref), isNull(deals.deletedAt));

export async function findDeal(db: Database, scope: Scope, ref: string) {
  const row = await db.select().from(deals).where(dealInScope(scope, ref)).get();
  return row ? toDeal(row) : null;
}

/**
 * Internal, unscoped on purpose: the deal an offer was made on, whoever's it is. The partner's
 * offer acceptance hands the lead over to that offer's lender, so the caller (the partner) is not
 * the deal's owner; the offer itself was read scoped to the partner's lead first
 * (services/leads/offers.ts), and only the lender, environment and test flag leave this function.
 */
export async function findDealByRef(db: Database, ref: string) {
  return (await db.select({ ref: deals.ref, lenderOrganisationId: deals.lenderOrganisationId, environment: deals.environment, test: deals.test }).from(deals).where(eq(deals.ref, ref)).get()) ?? null;
}

export type DealPosition = KeysetPosition;

/** Newest first, keyset on (created_at, rowid) over the lender's (status-)indexed range (db/write-order.ts). */
/** Declined with at least one of these codes (the list's `reasons` filter). */
const declinedFor = (codes: readonly string[]) =>
  sql`exists (select 1 from json_each(${deals.declineReasons}) where json_extract(value, '$.code') in (${sql.join(
    codes.map((code) => sql`${code}`),
    sql`, `,
  )}))`;

export function listDealsQuery(db: Database, scope: Scope, status: LenderStatus | undefined, after: DealPosition | null, limit: number, reasons: readonly string[] = []) {
  const conditions: (SQL | undefined)[] = [eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), isNull(deals.deletedAt)];
  if (status) conditions.push(eq(deals.lenderStatus, status));
  if (reasons.length > 0) conditions.push(declinedFor(reasons));
  if (after) conditions.push(writtenBefore(deals, deals.createdAt, after));
  return db
    .select({ deal: deals, seq: writeOrder(deals), statementsAvailable: hasParsedStatement })
    .from(deals)
    .where(and(...conditions))
    .orderBy(desc(deals.createdAt), desc(writeOrder(deals)))
    .limit(limit);
}

export async function listDeals(db: Database, scope: Scope, status: LenderStatus | undefined, after: DealPosition | null, limit: number, reasons: readonly string[] = []) {
  // One extra row says whether there is a next page without a count.
  const rows = await listDealsQuery(db, scope, status, after, limit + 1, reasons).all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    deals: page.map((r): ListedDeal => ({ ...toDeal(r.deal), statementsAvailable: Boolean(r.statementsAvailable) })),
    more: rows.length > limit,
    last: last ? { createdAt: last.deal.createdAt, seq: last.seq } : null,
  };
}

/** A deal in the list, with whether its lender can read a parsed statement (the list's `statements_available`). */
export type ListedDeal = Deal & { statementsAvailable: boolean };

/**
 * An accepted, parsed statement the deal's lender sees (the rule of
 * `documentsOfDeal`: the lead's shared uploads or this deal's own), read per
 * row inside the list query so the page costs one query.
 */
const doc = documentColumn;
const deal = (column: { name: string }) => qualified("deals", column);
const hasParsedStatement = parsedStatementExists(
  sql`${doc(documents.dealRef)} = ${deal(deals.ref)} or (${doc(documents.leadId)} = ${deal(deals.leadId)} and ${doc(documents.dealRef)} is null)`,
);

/** True inside a batch once the deal carries `token`. */
export const dealChanged = (ref: string, token: string) =>
  sql`exists (select 1 from ${deals} where ${deals.ref} = ${ref} and ${deals.lastChange} = ${token})`;

export interface StatusChange {
  to: LenderStatus;
  from: LenderStatus[];
  status?: DealStatus;
  reason: string | null;
  /** Set with `declined` only. */
  declineReasons?: DeclineReason[];
  fundedAmount: number | null;
  token: string;
  at: string;
  /** A further condition on the deal row (e.g. `dealFundable`). */
  guard?: SQL;
}

export const dealStatusUpdate = (db: Database, scope: Scope, ref: string, change: StatusChange) =>
  db
    .update(deals)
    .set({
      lenderStatus: change.to,
      ...(change.status ? { status: change.status } : {}),
      statusReason: change.reason,
      ...(change.declineReasons ? { declineReasons: change.declineReasons } : {}),
      ...(change.fundedAmount !== null ? { fundedAmount: change.fundedAmount } : {}),
      lastChange: change.token,
      updatedAt: change.at,
    })
    .where(and(dealInScope(scope, ref), inArray(deals.lenderStatus, change.from), change.guard));

/**
 * Funding belongs to the deal whose offer the partner accepted; while none is
 * accepted any routed lender may report it (a test deal has no lead).
 */
export const dealFundable = sql`(${deals.leadId} is null or ${deals.status} = 'offer_accepted' or not exists (select 1 from ${leadRouting} where ${leadRouting.leadId} = ${deals.leadId} and ${leadRouting.acceptedOfferId} is not null))`;

/**
 * The funded amount is at most the accepted offer's amount, or the current offer's while none is
 * accepted (`fundingCeiling` in src/domain/deals/status.ts, the rule in words).
 */
export const fundableUpTo = (amount: number) =>
  sql`${amount} <= coalesce((select ${offers.amount} from ${offers} where ${offers.dealRef} = ${deals.ref} and ${offers.state} = 'accepted'), (select ${offers.amount} from ${offers} where ${offers.dealRef} = ${deals.ref} and ${offers.superseded} = 0 order by ${offers.createdAt} desc, ${offers}.rowid desc limit 1))`;

/** A lender's offer can be made while the deal's lead still takes offers (a test deal has no lead). */
export const dealOpenForOffers = (leadStates: readonly LeadState[]) =>
  sql`(${deals.leadId} is null or exists (select 1 from ${leads} where ${leads.id} = ${deals.leadId} and ${leads.state} in (${sql.join(
    leadStates.map((s) => sql`${s}`),
    sql`, `,
  )})))`;

export const offerDealUpdate = (db: Database, scope: Scope, ref: string, from: LenderStatus[], leadStates: readonly LeadState[], token: string, at: string, guard?: SQL) =>
  db
    .update(deals)
    .set({ lenderStatus: "offer_made", lastChange: token, updatedAt: at })
    .where(and(dealInScope(scope, ref), inArray(deals.lenderStatus, from), eq(deals.status, "submitted"), dealOpenForOffers(leadStates), guard));

export const dealStatusOfAcceptance = (db: Database, ref: string, at: string, guard: SQL) =>
  db.update(deals).set({ status: "offer_accepted", updatedAt: at }).where(and(eq(deals.ref, ref), guard));

/**
 * A statement: the caller batches it with the client's notification and checks that one row changed.
 * Never on a signed deal: the signed agreement is immutable (0 rows when the business signed first).
 */
export const agreementRecord = (db: Database, scope: Scope, ref: string, key: string, at: string) =>
  db.update(deals).set({ agreementUploadedAt: at, agreementKey: key, updatedAt: at }).where(and(dealInScope(scope, ref), isNull(deals.signedAt)));

/** Test deals are capped per lender and environment; the cap is part of the insert, so racing creates cannot pass it. */
export const TEST_DEAL_CAP = 10;

export const testDealInsert = (db: Database, deal: NewDeal) =>
  insertWhere(
    db,
    deals,
    dealRow(deal),
    sql`(select count(*) from ${deals} where ${deals.lenderOrganisationId} = ${deal.lenderOrganisationId} and ${deals.environment} = ${deal.environment} and ${deals.test} = 1 and ${deals.deletedAt} is null) < ${TEST_DEAL_CAP}`,
  );

export async function deleteTestDeal(db: Database, scope: Scope, ref: string, at: string) {
  const result = await db.update(deals).set({ deletedAt: at, updatedAt: at }).where(and(dealInScope(scope, ref), eq(deals.test, true))).run();
  return result.meta.changes === 1;
}

export async function countTestDeals(db: Database, scope: Scope) {
  const row = await db
    .select({ n: count() })
    .from(deals)
    .where(and(eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), eq(deals.test, true), isNull(deals.deletedAt)))
    .get();
  return row?.n ?? 0;
}

/** The lender's test deals of the environment (at most TEST_DEAL_CAP exist), newest first. */
export async function listTestDeals(db: Database, scope: Scope) {
  const rows = await db
    .select()
    .from(deals)
    .where(and(eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), eq(deals.test, true), isNull(deals.deletedAt)))
    .orderBy(desc(deals.createdAt), desc(writeOrder(deals)))
    .limit(TEST_DEAL_CAP)
    .all();
  return rows.map(toDeal);
}

/** The lender's report that a funded deal ended early (settled or defaulted): once, and only on a funded deal. */
export const repaymentOutcomeUpdate = (db: Database, scope: Scope, ref: string, outcome: string, token: string, at: string) =>
  db
    .update(deals)
    .set({ repaymentOutcome: outcome, repaymentOutcomeAt: at, lastChange: token, updatedAt: at })
    .where(and(dealInScope(scope, ref), eq(deals.lenderStatus, "funded"), isNull(deals.repaymentOutcome)));
