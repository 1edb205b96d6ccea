/**
 * Renewals: a funded lead opens a new draft, prefilled with what is still
 * true of the business (src/domain/leads/renewal.ts decides what), that names
 * the lead it renews. Opening it is one insert, like any new lead: lead
 * creation fires no event, so there is nothing else to batch with it.
 */
import type { Deps } from "../deps";
import type { Scope } from "../../domain/identity/caller";
import { isRenewable, renewalParts, RENEWABLE_STATE } from "../../domain/leads/renewal";
import type { Lead } from "../../domain/leads/types";
import { marketFor } from "../../domain/reference/markets";
import { Refusal } from "../../lib/refusal";
import { openLead, requireLead } from "./leads";

export async function renewLead(deps: Deps, scope: Scope, id: string): Promise<Lead> {
  const original = await requireLead(deps, scope, id);
  if (!isRenewable(original)) {
    throw new Refusal("lead_not_funded", `Only a ${RENEWABLE_STATE} lead can be renewed; this lead is ${original.state}.`);
  }
  return openLead(deps, { scope, market: marketFor(original.country), parts: renewalParts(original), renewalOf: original.id });
}
