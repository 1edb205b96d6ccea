/**
 * Deals, their offers and messages. Every lender read is scoped in the query
 * to the lender organisation AND environment (and hides deleted test deals).
 * Writes are statements for the callers' batches; conditional updates carry a
 * fresh `last_change` token and the statements after them are guarded on it.
 */
import { and, asc, count, desc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Scope } from "../domain/identity/caller";
import type { Deal, DealMessage, DealStatus, Offer, OfferMaturity } from "../domain/deals/types";
import type { LeadState, LenderStatus } from "../domain/reference/values";
import type { Database } from "./client";
import { insertWhere } from "./guarded";
import { dealRow, type NewDeal } from "./routing";
import { dealMessages, deals, leadRouting, offers, type DealMessageRow, type DealRow, type OfferRow } from "./schema/deals";
import { documents } from "./schema/documents";
import { documentColumn, parsedStatementExists, qualified } from "./parsed-statements";
import { leads } from "./schema/leads";

export type Statement = BatchItem<"sqlite">;

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
  fundedAmount: r.fundedAmount,
  accountSubmittedAt: r.accountSubmittedAt,
  accountSummary: r.accountSummary,
  agreementUploadedAt: r.agreementUploadedAt,
  signedAt: r.signedAt,
  signatureVerification: r.signatureVerification,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const toOffer = (r: OfferRow): Offer => ({
  id: r.id,
  leadId: r.leadId,
  dealRef: r.dealRef,
  lenderOrganisationId: r.lenderOrganisationId,
  label: r.label,
  maturity: r.maturity,
  kind: r.kind,
  amount: r.amount,
  currency: r.currency,
  annualRatePct: r.annualRatePct,
  factorRate: r.factorRate,
  termMonths: r.termMonths,
  fees: r.fees,
  totalRepayment: r.totalRepayment,
  expiresAt: r.expiresAt,
  notes: r.notes,
  state: r.state as Offer["state"],
  superseded: r.superseded,
  supersededAt: r.supersededAt,
  supersededBy: r.supersededBy as OfferMaturity | null,
  simulated: r.simulated,
  createdAt: r.createdAt,
});

export const toMessage = (r: DealMessageRow): DealMessage => ({ id: r.id, direction: r.direction, body: r.body, subject: r.subject, fromEmail: r.fromEmail, createdAt: r.createdAt });

/** The lender's own, live (not deleted) deal with this upper-cased ref. */
export const dealInScope = (scope: Scope, ref: string) =>
  and(eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), eq(deals.ref, ref), isNull(deals.deletedAt));

export async function findDeal(db: Database, scope: Scope, ref: string) {
  const row = await db.select().from(deals).where(dealInScope(scope, ref)).get();
  return row ? toDeal(row) : null;
}

/** Internal: the deal an offer was made on, whoever's it is (the handover needs its lender). */
export async function findDealByRef(db: Database, ref: string) {
  return (await db.select({ ref: deals.ref, lenderOrganisationId: deals.lenderOrganisationId, environment: deals.environment, test: deals.test }).from(deals).where(eq(deals.ref, ref)).get()) ?? null;
}

export interface DealPosition {
  createdAt: string;
  ref: string;
}

/** Newest first, keyset on (created_at, ref) over the lender's (status-)indexed range. */
export async function listDeals(db: Database, scope: Scope, status: LenderStatus | undefined, after: DealPosition | null, limit: number) {
  const conditions: (SQL | undefined)[] = [eq(deals.lenderOrganisationId, scope.organisationId), eq(deals.environment, scope.environment), isNull(deals.deletedAt)];
  if (status) conditions.push(eq(deals.lenderStatus, status));
  if (after) conditions.push(sql`(${deals.createdAt}, ${deals.ref}) < (${after.createdAt}, ${after.ref})`);
  const rows = await db
    .select({ deal: deals, statementsAvailable: hasParsedStatement })
    .from(deals)
    .where(and(...conditions))
    .orderBy(desc(deals.createdAt), desc(deals.ref))
    .limit(limit + 1)
    .all();
  return { deals: rows.slice(0, limit).map((r): ListedDeal => ({ ...toDeal(r.deal), statementsAvailable: Boolean(r.statementsAvailable) })), more: rows.length > limit };
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

/** Offers written by one batch share a timestamp; rowid keeps the order they were made in (match order for simulated ones). */
const insertionOrder = sql`rowid`;

export async function offersOfDeal(db: Database, ref: string) {
  return (await db.select().from(offers).where(eq(offers.dealRef, ref)).orderBy(asc(offers.createdAt), insertionOrder).all()).map(toOffer);
}

/** A lead's current offers (superseded terms are the lender's history, not the partner's). */
export async function currentOffersOfLead(db: Database, leadId: string) {
  return (
    await db.select().from(offers).where(and(eq(offers.leadId, leadId), eq(offers.superseded, false))).orderBy(asc(offers.createdAt), insertionOrder).all()
  ).map(toOffer);
}

export async function findOfferOfLead(db: Database, leadId: string, offerId: string) {
  const row = await db.select().from(offers).where(and(eq(offers.leadId, leadId), eq(offers.id, offerId))).get();
  return row ? toOffer(row) : null;
}

/** The partner's reference of a lead, carried in the detail of every lead event. */
export async function leadReference(db: Database, leadId: string) {
  return (await db.select({ reference: leads.reference }).from(leads).where(eq(leads.id, leadId)).get())?.reference ?? null;
}

export async function findRouting(db: Database, leadId: string) {
  return (await db.select().from(leadRouting).where(eq(leadRouting.leadId, leadId)).get()) ?? null;
}

export async function messagesOfDeal(db: Database, ref: string) {
  return (await db.select().from(dealMessages).where(eq(dealMessages.dealRef, ref)).orderBy(asc(dealMessages.createdAt), asc(dealMessages.id)).all()).map(toMessage);
}

/** True inside a batch once the deal carries `token`. */
export const dealChanged = (ref: string, token: string) =>
  sql`exists (select 1 from ${deals} where ${deals.ref} = ${ref} and ${deals.lastChange} = ${token})`;

export interface StatusChange {
  to: LenderStatus;
  from: LenderStatus[];
  status?: DealStatus;
  reason: string | null;
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

/** No firm terms are current on the deal: indicative terms may not replace firm ones. */
export const noCurrentFirmOffer = (ref: string) =>
  sql`not exists (select 1 from ${offers} where ${offers.dealRef} = ${ref} and ${offers.superseded} = 0 and ${offers.state} = 'presented' and ${offers.maturity} = 'firm')`;

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

export const supersedeCurrentOffers = (db: Database, ref: string, by: OfferMaturity, guard: SQL, at: string) =>
  db
    .update(offers)
    .set({ superseded: true, supersededAt: at, supersededBy: by })
    .where(and(eq(offers.dealRef, ref), eq(offers.superseded, false), eq(offers.state, "presented"), guard));

export const offerInsertWhere = (db: Database, offer: typeof offers.$inferInsert, guard: SQL) => insertWhere(db, offers, offer, guard);

export const closePresentedOffers = (db: Database, where: SQL | undefined, guard: SQL) =>
  db.update(offers).set({ state: "closed" }).where(and(where, eq(offers.state, "presented"), guard));

export const offersOfDealWhere = (ref: string) => eq(offers.dealRef, ref);
export const offersOfLeadWhere = (leadId: string) => eq(offers.leadId, leadId);
export const otherOffersOfLeadWhere = (leadId: string, offerId: string) => and(eq(offers.leadId, leadId), ne(offers.id, offerId));

export const acceptOfferUpdate = (db: Database, offerId: string, guard: SQL) =>
  db.update(offers).set({ state: "accepted" }).where(and(eq(offers.id, offerId), guard));

/** Routing-record updates: each wins once, writing `token` for the statements after it. */
export const routingOutcomeUpdate = (db: Database, leadId: string, outcome: "funded" | "declined", fundedAmount: number | null, token: string, at: string, guard: SQL) =>
  db
    .update(leadRouting)
    .set({ outcome, outcomeAt: at, fundedAmount, lastChange: token })
    .where(and(eq(leadRouting.leadId, leadId), isNull(leadRouting.outcome), guard));

export const routingPresentedUpdate = (db: Database, leadId: string, token: string, at: string, guard: SQL) =>
  db
    .update(leadRouting)
    .set({ offersPresentedAt: at, lastChange: token })
    .where(and(eq(leadRouting.leadId, leadId), isNull(leadRouting.offersPresentedAt), guard));

/** The one acceptance a lead ever gets: only while no offer is accepted and this one is still acceptable. */
export const routingAcceptUpdate = (db: Database, leadId: string, offerId: string, fromStates: readonly LeadState[], token: string, at: string) =>
  db
    .update(leadRouting)
    .set({ acceptedOfferId: offerId, acceptedAt: at, lastChange: token })
    .where(
      and(
        eq(leadRouting.leadId, leadId),
        isNull(leadRouting.acceptedOfferId),
        sql`exists (select 1 from ${offers} where ${offers.id} = ${offerId} and ${offers.leadId} = ${leadId} and ${offers.state} = 'presented' and ${offers.superseded} = 0 and (${offers.expiresAt} is null or ${offers.expiresAt} > ${at}))`,
        sql`exists (select 1 from ${leads} where ${leads.id} = ${leadId} and ${leads.state} in (${sql.join(fromStates.map((s) => sql`${s}`), sql`, `)}))`,
      ),
    );

/** No deal of the lead is left that has not declined. */
export const everyDealDeclined = (leadId: string) =>
  sql`not exists (select 1 from ${deals} where ${deals.leadId} = ${leadId} and ${deals.deletedAt} is null and ${deals.lenderStatus} != 'declined')`;

/**
 * No routed lender can fund the lead any more: every deal declined, or the
 * lender whose offer was accepted declined (acceptance closed every other offer).
 */
export const noLenderLeftToFund = (leadId: string) =>
  sql`(${everyDealDeclined(leadId)} or exists (select 1 from ${leadRouting} join ${offers} on ${offers.id} = ${leadRouting.acceptedOfferId} join ${deals} on ${deals.ref} = ${offers.dealRef} where ${leadRouting.leadId} = ${leadId} and ${deals.lenderStatus} = 'declined'))`;

export const dealStatusOfAcceptance = (db: Database, ref: string, at: string, guard: SQL) =>
  db.update(deals).set({ status: "offer_accepted", updatedAt: at }).where(and(eq(deals.ref, ref), guard));

export const dealOutcomeStatus = (db: Database, ref: string, status: DealStatus, guard: SQL) =>
  db.update(deals).set({ status }).where(and(eq(deals.ref, ref), guard));

export const messageInsert = (db: Database, ref: string, message: DealMessage) =>
  db.insert(dealMessages).values({
    id: message.id,
    dealRef: ref,
    direction: message.direction,
    body: message.body,
    subject: message.subject ?? null,
    fromEmail: message.fromEmail ?? null,
    createdAt: message.createdAt,
  });

/** A statement: the caller batches it with the client's notification and checks that one row changed. */
export const agreementRecord = (db: Database, scope: Scope, ref: string, key: string, at: string) =>
  db.update(deals).set({ agreementUploadedAt: at, agreementKey: key, updatedAt: at }).where(dealInScope(scope, ref));

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
