/**
 * The Lead resource as GET /partner/v1/leads/{id} answers it (and `full`
 * webhook payloads carry it): the lead with its documents, statements, hub
 * link, register facts, and what routing holds (offers, funding outcome,
 * out-of-scope reasons).
 */
import { findLeadWithRelations, type LeadWithRelations } from "../../db/leads/with-relations";
import { partnerOfferView } from "../../domain/deals/offer-view";
import { partnerOutcomes } from "../../domain/deals/outcomes";
import { allDeclined } from "../../domain/deals/offer-view";
import type { Scope } from "../../domain/identity/caller";
import type { Lead } from "../../domain/leads/types";
import { leadView } from "../../domain/leads/view";
import { Refusal } from "../../lib/refusal";
import { openOutlook } from "./outlook";
import { registerViewFrom, registryLastAsked } from "../registers/holdings";
import type { ViewContext } from "../views/view-context";

async function viewOf(ctx: ViewContext, found: LeadWithRelations) {
  const { lead, documents, routing, offers, routedOptions, renewals, registerAnswers, hubLinkGeneration, attributionSince } = found;
  const uploadUrl = await ctx.links.hub(lead.id, hubLinkGeneration);
  const register = registerViewFrom(registerAnswers, ctx.clock());
  const registerSources = { register: register.figures, registerAnswers: register.answers };
  if (!lead.submittedAt) return leadView(lead, { documents, uploadUrl, ...registerSources });
  return leadView(lead, {
    documents,
    uploadUrl,
    ...registerSources,
    renewals,
    attributionSince,
    routing: {
      offers: offers.map(partnerOfferView),
      allOffersDeclined: allDeclined(offers),
      outcomes: partnerOutcomes(routedOptions),
      ...(await openOutlook(ctx, found)),
      fundingOutcome:
        routing?.outcome === "funded" && routing.outcomeAt && routing.fundedAmount !== null ? { funded_at: routing.outcomeAt, funded_amount: routing.fundedAmount } : null,
      reasons: routing?.reasons ?? [],
    },
  });
}

/** A lead this request has just opened: it has no documents, routing or register answers yet, so nothing is read. */
export const presentNewLead = (ctx: ViewContext, lead: Lead) => viewOf(ctx, { lead, documents: [], routing: null, offers: [], routedOptions: [], renewals: [], registerAnswers: [], hubLinkGeneration: 0, attributionSince: null });

/** The lead and all it shows in one D1 round trip; null outside the scope's account and environment. */
export async function findLeadView(ctx: ViewContext, scope: Scope, id: string) {
  return (await findVersionedLeadView(ctx, scope, id))?.view ?? null;
}

/** The view with the version it shows (the ETag of GET /leads/{id}, what If-Match names). */
async function findVersionedLeadView(ctx: ViewContext, scope: Scope, id: string) {
  const found = await findLeadWithRelations(ctx.db, scope, id);
  return found ? { view: await viewOf(ctx, found), version: found.lead.version } : null;
}

/** GET /leads/{id} with the version it shows; `not_found` outside the caller's account and environment. */
export async function readVersionedLead(ctx: ViewContext, scope: Scope, id: string) {
  const found = await findVersionedLeadView(ctx, scope, id);
  if (!found) throw new Refusal("not_found", "No lead with that id in this account and environment.");
  return found;
}

/** GET /leads/{id}; `not_found` outside the caller's account and environment. */
export async function readLead(ctx: ViewContext, scope: Scope, id: string) {
  const view = await findLeadView(ctx, scope, id);
  if (!view) throw new Refusal("not_found", "No lead with that id in this account and environment.");
  return view;
}

/** The lead as a person reads it in the portal: the API's lead, plus when the company register was last asked (not part of the API's object). */
export async function readLeadForPerson(ctx: ViewContext, scope: Scope, id: string) {
  const found = await findLeadWithRelations(ctx.db, scope, id);
  if (!found) throw new Refusal("not_found", "No lead with that id in this account and environment.");
  return { ...(await viewOf(ctx, found)), registryLastAsked: registryLastAsked(found.registerAnswers) };
}

/** A lead a write has just changed, answered exactly as GET /leads/{id} answers it (the same one-batch read). */
export const presentLead = (ctx: ViewContext, lead: Lead) => readLead(ctx, { organisationId: lead.organisationId, environment: lead.environment }, lead.id);

/** The same, with the version it shows. */
export const presentVersionedLead = (ctx: ViewContext, lead: Lead) => readVersionedLead(ctx, { organisationId: lead.organisationId, environment: lead.environment }, lead.id);
