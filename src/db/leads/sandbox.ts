/** Statements of the sandbox helper (`POST /partner/v1/sandbox/leads/{id}/simulate`). */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { LeadState } from "../../domain/reference/values";
import type { Database } from "../client";
import { leadRouting, offers } from "../schema/deals";
import { leads } from "../schema/leads";

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
