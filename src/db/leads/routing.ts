/**
 * The rows a submit writes besides the lead itself: the routing record, one
 * deal per matched lender (live) or the simulated offers (sandbox). Every
 * statement is guarded on the submission token, so only the submit that won
 * the lead's conditional update writes them.
 */
import { sql, and, eq, isNull, type SQL } from "drizzle-orm";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { deals, leadRouting, offers } from "../schema/deals";
import { leads } from "../schema/leads";
import type { LeadState } from "../../domain/reference/values";
import type { Deal } from "../../domain/deals/types";

export const submissionWon = (leadId: string, token: string) =>
  sql`exists (select 1 from ${leads} where ${leads.id} = ${leadId} and ${leads.submissionToken} = ${token})`;

export interface RoutingRecord {
  leadId: string;
  partnerOrganisationId: string;
  environment: "sandbox" | "live";
  reasons: { code: string; detail: string }[];
  offersPresentedAt: string | null;
  token: string;
  at: string;
}

export const routingInsert = (db: Database, r: RoutingRecord) =>
  insertWhere(
    db,
    leadRouting,
    {
      leadId: r.leadId,
      partnerOrganisationId: r.partnerOrganisationId,
      environment: r.environment,
      reasons: r.reasons,
      offersPresentedAt: r.offersPresentedAt,
      lastChange: r.token,
      createdAt: r.at,
    },
    submissionWon(r.leadId, r.token),
  );

/** A deal's fields as the domain declares them, with the write's time and the routing token. */
export type NewDeal = Pick<Deal, "ref" | "lenderOrganisationId" | "environment" | "leadId" | "partnerOrganisationId" | "test" | "productIds" | "subject"> & {
  /** The routed product family (the first matched product's); test deals have none. */
  productFamily?: string | null;
  at: string;
  token: string;
};

export const dealRow = (d: NewDeal): typeof deals.$inferInsert => ({
  ref: d.ref,
  lenderOrganisationId: d.lenderOrganisationId,
  environment: d.environment,
  leadId: d.leadId,
  partnerOrganisationId: d.partnerOrganisationId,
  test: d.test,
  productIds: d.productIds,
  productFamily: d.productFamily ?? null,
  subject: d.subject,
  status: "submitted",
  lenderStatus: "new",
  lastChange: d.token,
  createdAt: d.at,
  updatedAt: d.at,
});

export const dealInsertForSubmission = (db: Database, deal: NewDeal, leadId: string, token: string) =>
  insertWhere(db, deals, dealRow(deal), submissionWon(leadId, token));

export type NewOffer = typeof offers.$inferInsert;

export const offerInsertForSubmission = (db: Database, offer: NewOffer, leadId: string, token: string) =>
  insertWhere(db, offers, offer, submissionWon(leadId, token));

/** The partner's reference of a lead, carried in the detail of every lead event. */
export async function leadReference(db: Database, leadId: string) {
  return (await db.select({ reference: leads.reference }).from(leads).where(eq(leads.id, leadId)).get())?.reference ?? null;
}

export async function findRouting(db: Database, leadId: string) {
  return (await db.select().from(leadRouting).where(eq(leadRouting.leadId, leadId)).get()) ?? null;
}

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
/**
 * The routing row as the lock of a decline: it wins (writing `token`) only while the offer is presented
 * and current and the lead still takes offers, so two declines of one offer write one event.
 */
export const routingDeclineUpdate = (db: Database, leadId: string, offerId: string, fromStates: readonly LeadState[], token: string) =>
  db
    .update(leadRouting)
    .set({ lastChange: token })
    .where(
      and(
        eq(leadRouting.leadId, leadId),
        sql`exists (select 1 from ${offers} where ${offers.id} = ${offerId} and ${offers.leadId} = ${leadId} and ${offers.state} = 'presented' and ${offers.superseded} = 0)`,
        sql`exists (select 1 from ${leads} where ${leads.id} = ${leadId} and ${leads.state} in (${sql.join(fromStates.map((s) => sql`${s}`), sql`, `)}))`,
      ),
    );

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
