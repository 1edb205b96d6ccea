import type { Database } from "../../db/client";
import { findLead } from "../../db/leads/leads";
import type { Scope } from "../../domain/identity/caller";
import { missingForSubmit } from "../../domain/leads/submission";
import type { Lead, LeadParts } from "../../domain/leads/types";
import type { Market } from "../../domain/reference/markets";
import { Refusal } from "../../lib/refusal";
import { panelMatcher } from "../leads/routing";
import { openLead, pageOfLeads, submitLead, type LookupQueue } from "../leads/leads";
import { newLeadReference } from "../../domain/leads/reference";

/** A referral as the lender sees it: the lead its organisation introduced, for reconciliation. */
export const referralView = (lead: Lead) => ({
  id: lead.id,
  reference: lead.reference,
  state: lead.state,
  matched_options: lead.matchedOptions,
  created_at: lead.createdAt,
  updated_at: lead.updatedAt,
});

/**
 * A lender refers a business it declined: the business becomes a lead of the
 * lender organisation, submitted at once and matched against the rest of the
 * panel only (never back to the referring lender).
 */
export async function referBusiness(db: Database, d1: D1Database, scope: Scope, country: Market, parts: LeadParts, lookups?: LookupQueue) {
  const missing = missingForSubmit({ business: parts.business ?? null, trading: parts.trading ?? null, funding: parts.funding ?? null }, country);
  if (missing.length > 0) {
    throw new Refusal("missing_fields", `Mandatory fields of ${country.name} are missing: ${missing.join(", ")}.`, { extra: { missing } });
  }
  const lead = await openLead(db, scope, country, parts, newLeadReference, null, lookups);
  const { lead: submitted } = await submitLead(db, scope, lead.id, panelMatcher(d1, scope.organisationId));
  return referralView(submitted);
}

export async function pageOfReferrals(db: Database, scope: Scope, cursor: string | undefined, limit: number, secret: string) {
  const page = await pageOfLeads(db, scope, {}, cursor, limit, secret);
  return { referrals: page.leads.map(referralView), nextCursor: page.nextCursor };
}

export async function findReferral(db: Database, scope: Scope, id: string) {
  const lead = await findLead(db, scope, id);
  return lead ? referralView(lead) : null;
}
