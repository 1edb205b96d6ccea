/**
 * Lead state changes made after submit (offers presented, acceptance,
 * funding, decline). Each is a statement for a batch, conditional on the
 * lead's current state and on a guard the caller's winning update wrote, with
 * the timeline entry appended in the same statement.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { LeadState } from "../../domain/reference/values";
import type { Database } from "../client";
import { leadRouting } from "../schema/deals";
import { leads } from "../schema/leads";

export function moveLead(db: Database, leadId: string, from: readonly LeadState[], to: LeadState, at: string, guard: SQL) {
  return db
    .update(leads)
    .set({
      state: to,
      timeline: sql`json_insert(${leads.timeline}, '$[#]', json_object('event', ${`lead.${to}`}, 'occurred_at', ${at}))`,
      version: sql`${leads.version} + 1`,
      updatedAt: at,
    })
    .where(and(eq(leads.id, leadId), inArray(leads.state, [...from]), guard));
}

/** True inside a batch once the lead's routing row carries `token`. */
export const routingChanged = (leadId: string, token: string) =>
  sql`exists (select 1 from ${leadRouting} where ${leadRouting.leadId} = ${leadId} and ${leadRouting.lastChange} = ${token})`;

/** True inside a batch once the lead is in `state`. */
export const leadIn = (leadId: string, state: LeadState) =>
  sql`exists (select 1 from ${leads} where ${leads.id} = ${leadId} and ${leads.state} = ${state})`;

/** Guards that must all hold. */
export const allOf = (...guards: SQL[]) => and(...guards)!;
