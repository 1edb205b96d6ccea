import type { Deps } from "../deps";
import { countLeadsByState } from "../../db/leads/counts";
import type { Scope } from "../../domain/identity/caller";
import { LEAD_STATES, type LeadState } from "../../domain/reference/values";

/** The first instant of the UTC calendar month holding `now`. */
export const startOfMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

/**
 * The leads opened this calendar month (UTC) in the scope's account and
 * environment (the month of `deps.clock()`), counted per state: every state listed, in life-cycle order, zero included.
 */
export async function leadsByStateThisMonth(deps: Deps, scope: Scope) {
  const { db } = deps;
  const since = startOfMonth(deps.clock());
  const counted = new Map((await countLeadsByState(db, scope, since)).map((row) => [row.state, row.leads]));
  const states = LEAD_STATES.map((s) => ({ state: s.value as LeadState, label: s.label, leads: counted.get(s.value) ?? 0 }));
  return { since, states, total: states.reduce((sum, s) => sum + s.leads, 0) };
}
