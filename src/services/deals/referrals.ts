import type { Deps } from "../deps";
import { runBatch } from "../../db/batch";
import { findLead, leadInsert } from "../../db/leads/leads";
import type { Scope } from "../../domain/identity/caller";
import { missingForSubmit } from "../../domain/leads/submission";
import type { Lead, LeadParts } from "../../domain/leads/types";
import type { Market } from "../../domain/reference/markets";
import { Refusal } from "../../lib/refusal";
import { panelMatcher } from "../leads/routing";
import { claimableCompany } from "../../domain/leads/attribution";
import { isClaimTaken } from "../../db/leads/claims";
import { draftLead, matchDraft, notRouted, pageOfLeads, planSubmission, withFreshReference } from "../leads/leads";

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
 * panel only (never back to the referring lender). The draft's insert, its register lookups
 * and the submission (routing, deals, events) are one D1 batch.
 */
export async function referBusiness(deps: Deps, scope: Scope, country: Market, parts: LeadParts) {
  const missing = missingForSubmit({ business: parts.business ?? null, trading: parts.trading ?? null, funding: parts.funding ?? null }, country);
  if (missing.length > 0) {
    throw new Refusal("missing_fields", `Mandatory fields of ${country.name} are missing: ${missing.join(", ")}.`, { extra: { missing } });
  }
  // The lead and its submission in one batch (with the Idempotency-Key's commit): a failure cannot leave
  // a draft behind a spent key. The matcher decides in the isolate before anything is written.
  const { lead, writes } = draftLead(deps, { scope, market: country, parts });
  const matched = await matchDraft(deps, lead, { registerAnswers: [], documents: [] }, panelMatcher(deps, scope.organisationId));
  // One business, one introducer (docs/leads.md, "Attribution"): the referral claims its company like a
  // partner's lead, in the same batch; when a claim already holds (the referring lender's own included),
  // the database refuses the claim and the referral is written again, not routed, naming no one.
  const claim = claimableCompany(lead);
  const submitted = await withFreshReference(deps, lead, writes.messages, async (drawn) => {
    const write = async (plan: ReturnType<typeof planSubmission>) => {
      await runBatch(deps.db, [leadInsert(deps.db, drawn), ...writes.statements, ...plan.statements]);
      return plan.submitted;
    };
    try {
      return await write(planSubmission(deps, scope, drawn, claim?.standingClaim ? notRouted(matched) : matched, claim?.standingClaim ? null : claim));
    } catch (error) {
      if (!claim || !isClaimTaken(error)) throw error;
      return write(planSubmission(deps, scope, drawn, notRouted(matched), null));
    }
  });
  return referralView(submitted);
}

export async function pageOfReferrals(deps: Deps, scope: Scope, cursor: string | undefined, limit: number) {
  const page = await pageOfLeads(deps, scope, {}, cursor, limit);
  return { referrals: page.leads.map(referralView), nextCursor: page.nextCursor };
}

export async function findReferral(deps: Deps, scope: Scope, id: string) {
  const { db } = deps;
  const lead = await findLead(db, scope, id);
  return lead ? referralView(lead) : null;
}
