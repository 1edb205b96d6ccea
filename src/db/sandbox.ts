/** Statements of the sandbox helper and small reads the partner-side offer flow needs. */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { LeadState } from "../domain/reference/values";
import type { Database } from "./client";
import { deals, leadRouting, offers } from "./schema/deals";
import { leads } from "./schema/leads";

/** Internal: the deal an offer was made on, whoever's it is (the handover needs its lender). */
export async function findDealByRef(db: Database, ref: string) {
  return (await db.select({ ref: deals.ref, lenderOrganisationId: deals.lenderOrganisationId, environment: deals.environment, test: deals.test }).from(deals).where(eq(deals.ref, ref)).get()) ?? null;
}

/** Wins while no offer is accepted and the lead is in one of `states`; stamps `token`. */
export const leadRoutingRefresh = (db: Database, leadId: string, states: readonly LeadState[], token: string, at: string) =>
  db
    .update(leadRouting)
    .set({ offersPresentedAt: sql`coalesce(${leadRouting.offersPresentedAt}, ${at})`, lastChange: token })
    .where(
      and(
        eq(leadRouting.leadId, leadId),
        sql`${leadRouting.acceptedOfferId} is null`,
        sql`exists (select 1 from ${leads} where ${leads.id} = ${leadId} and ${inArray(leads.state, [...states])})`,
      ),
    );

export const supersedeLeadOffers = (db: Database, leadId: string, guard: SQL, at: string) =>
  db
    .update(offers)
    .set({ superseded: true, supersededAt: at, supersededBy: "indicative" })
    .where(and(eq(offers.leadId, leadId), eq(offers.superseded, false), eq(offers.state, "presented"), guard));
