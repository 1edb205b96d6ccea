/**
 * A lender's deal with its offers, the documents its lender sees and its
 * register answers and commission disclosures, in one D1 round trip: one batch of five reads, each scoped in SQL to the caller's
 * own live deal, so another account's deal finds nothing anywhere. Their SQL is built once per isolate
 * and bound to each request's scope and reference (db/prepared-batch.ts). The
 * document rule is `documentsOfDeal`'s: this deal's own uploads, and the
 * lead's accepted uploads not tied to a deal.
 */
import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Deal, Offer } from "../../domain/deals/types";
import type { StoredDocument } from "../../domain/documents/types";
import type { Scope } from "../../domain/identity/caller";
import type { Database } from "../client";
import { dealInScope, toDeal } from "./deals";
import { toOffer } from "../offer-rows";
import { toDocument } from "../documents/documents";
import { deals, offers } from "../schema/deals";
import { documents } from "../schema/documents";
import { registerAnswers, type RegisterAnswerRow } from "../schema/registers";
import { writeOrder } from "../write-order";
import { preparedBatch } from "../prepared-batch";
import { commissionDisclosures } from "../schema/commission";

export interface DealWithRelations {
  deal: Deal;
  offers: Offer[];
  documents: StoredDocument[];
  /** Its lead's register answers, or a test deal's own (stored under its reference). */
  registerAnswers: RegisterAnswerRow[];
  /** The commission disclosures the business was shown about this deal's offers (docs/commission.md). */
  disclosures: (typeof commissionDisclosures.$inferSelect)[];
}

const bound = { organisationId: sql.placeholder("organisationId"), environment: sql.placeholder("environment") };
const dealRef = sql.placeholder("ref");

/** The batch's five statements, built once per isolate (db/prepared-batch.ts) and bound to each request's scope and reference. */
export const readDealWithRelations = preparedBatch((db) => {
  const ownDeal = db.select({ ref: deals.ref }).from(deals).where(dealInScope(bound, dealRef));
  const leadOfOwnDeal = db.select({ leadId: deals.leadId }).from(deals).where(dealInScope(bound, dealRef));
  const registerOwnerOfOwnDeal = db.select({ ownerId: sql<string>`coalesce(${deals.leadId}, ${deals.ref})` }).from(deals).where(dealInScope(bound, dealRef));
  return [
    db.select().from(deals).where(dealInScope(bound, dealRef)).prepare(),
    // rowid: offers written by one batch share a timestamp and keep the order they were made in.
    db.select().from(offers).where(and(eq(offers.dealRef, dealRef), inArray(offers.dealRef, ownDeal))).orderBy(asc(offers.createdAt), sql`rowid`).prepare(),
    db
      .select()
      .from(documents)
      .where(
        or(
          and(eq(documents.dealRef, dealRef), inArray(documents.dealRef, ownDeal)),
          and(inArray(documents.leadId, leadOfOwnDeal), isNull(documents.dealRef), eq(documents.state, "accepted")),
        ),
      )
      .orderBy(asc(documents.receivedAt), asc(writeOrder(documents)))
      .prepare(),
    db.select().from(registerAnswers).where(inArray(registerAnswers.ownerId, registerOwnerOfOwnDeal)).prepare(),
    db
      .select()
      .from(commissionDisclosures)
      .where(and(eq(commissionDisclosures.dealRef, dealRef), inArray(commissionDisclosures.dealRef, ownDeal)))
      .orderBy(asc(commissionDisclosures.shownAt), asc(commissionDisclosures.id))
      .prepare(),
  ] as const;
});

export async function findDealWithRelations(db: Database, scope: Scope, ref: string): Promise<DealWithRelations | null> {
  const [dealRows, offerRows, documentRows, answerRows, disclosureRows] = await readDealWithRelations(db, { ...scope, ref });
  if (!dealRows[0]) return null;
  return { deal: toDeal(dealRows[0]), offers: offerRows.map(toOffer), documents: documentRows.map(toDocument), registerAnswers: answerRows, disclosures: disclosureRows };
}
