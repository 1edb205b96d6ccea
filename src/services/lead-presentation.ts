/**
 * The Lead resource as GET /partner/v1/leads/{id} answers it (and `full`
 * webhook payloads carry it): the lead with its documents, statements, hub
 * link, register facts, and what routing holds (offers, funding outcome,
 * out-of-scope reasons).
 */
import { currentOffersOfLead } from "../db/offers";
import { findRouting } from "../db/routing";
import { documentsOfLead } from "../db/documents";
import { findLeadWithRelations, type LeadWithRelations } from "../db/lead-with-relations";
import { answersOf } from "../db/register-answers";
import { renewalsOf } from "../db/leads";
import { partnerOfferView } from "../domain/deals/offer-view";
import type { Scope } from "../domain/identity/caller";
import type { Lead } from "../domain/leads/types";
import { leadView } from "../domain/leads/view";
import { ApiError } from "../lib/errors";
import { registerViewFrom } from "./register-holdings";
import type { ViewContext } from "./view-context";

async function viewOf(ctx: ViewContext, { lead, documents, routing, offers, renewals, registerAnswers }: LeadWithRelations) {
  const uploadUrl = await ctx.links.hub(lead.id);
  const register = registerViewFrom(registerAnswers);
  const registerSources = { register: register.figures, registerAnswers: register.answers };
  if (!lead.submittedAt) return leadView(lead, { documents, uploadUrl, ...registerSources });
  return leadView(lead, {
    documents,
    uploadUrl,
    ...registerSources,
    renewals,
    routing: {
      offers: offers.map(partnerOfferView),
      fundingOutcome:
        routing?.outcome === "funded" && routing.outcomeAt && routing.fundedAmount !== null ? { funded_at: routing.outcomeAt, funded_amount: routing.fundedAmount } : null,
      reasons: routing?.reasons ?? [],
    },
  });
}

/** A lead already in hand: its documents, routing and register answers are read beside it. */
export async function presentLead(ctx: ViewContext, lead: Lead) {
  const [documents, routing, offers, renewals, registerAnswers] = await Promise.all([
    documentsOfLead(ctx.db, lead.id),
    lead.submittedAt ? findRouting(ctx.db, lead.id) : null,
    lead.submittedAt ? currentOffersOfLead(ctx.db, lead.id) : [],
    // Only a funded lead can be renewed, and funding comes after submit: drafts have none to read.
    lead.state === "funded" ? renewalsOf(ctx.db, lead, lead.id) : [],
    answersOf(ctx.db, lead.id),
  ]);
  return viewOf(ctx, { lead, documents, routing, offers, renewals, registerAnswers });
}

/** A lead this request has just opened: it has no documents, routing or register answers yet, so nothing is read. */
export const presentNewLead = (ctx: ViewContext, lead: Lead) => viewOf(ctx, { lead, documents: [], routing: null, offers: [], renewals: [], registerAnswers: [] });

/** GET /leads/{id}: the lead and all it shows in one D1 round trip; 404 outside the caller's account and environment. */
export async function readLead(ctx: ViewContext, scope: Scope, id: string) {
  const found = await findLeadWithRelations(ctx.db, scope, id);
  if (!found) throw new ApiError("not_found", "No lead with that id in this account and environment.");
  return viewOf(ctx, found);
}
