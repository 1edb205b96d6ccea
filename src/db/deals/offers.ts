/** Offers on deals: lender terms, their supersession and acceptance. Statements are for the callers' batches. */
import { and, asc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Offer, OfferMaturity } from "../../domain/deals/types";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { deals, offers } from "../schema/deals";
import { toOffer } from "../offer-rows";

/** Offers written by one batch share a timestamp; rowid keeps the order they were made in (match order for simulated ones). */
const insertionOrder = sql`rowid`;

/**
 * Every offer made on one deal, superseded ones included, in the order they were made.
 * Keyed by the deal's ref alone on purpose: a ref is the deal's primary key, and every caller
 * holds it only from a read already scoped to the organisation and environment (the lender's
 * `requireDeal`/`findDeal`, the partner's lead-scoped deals, the hub's lead opened by its link),
 * so the child rows cannot be another account's. Repeating the condition here would need a join
 * (messages and requests carry no organisation column) for no added guarantee.
 */
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

/** No firm terms are current on the deal: indicative terms may not replace firm ones. */
export const noCurrentFirmOffer = (ref: string) =>
  sql`not exists (select 1 from ${offers} where ${offers.dealRef} = ${ref} and ${offers.superseded} = 0 and ${offers.state} = 'presented' and ${offers.maturity} = 'firm')`;

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

/** The business's "no": only a presented, current offer, and only in the batch that won (`guard`). */
export const declineOfferUpdate = (db: Database, offerId: string, reasonCode: string, at: string, guard: SQL) =>
  db
    .update(offers)
    .set({ state: "declined", declinedReason: reasonCode, declinedAt: at })
    .where(and(eq(offers.id, offerId), eq(offers.state, "presented"), eq(offers.superseded, false), guard));

export const acceptOfferUpdate = (db: Database, offerId: string, guard: SQL) =>
  db.update(offers).set({ state: "accepted" }).where(and(eq(offers.id, offerId), guard));
