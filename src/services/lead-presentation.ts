/**
 * The Lead resource as GET /partner/v1/leads/{id} answers it (and `full`
 * webhook payloads carry it): the lead with its documents, statements, hub
 * link, and what routing holds (offers, funding outcome, out-of-scope reasons).
 */
import { currentOffersOfLead } from "../db/offers";
import { findRouting } from "../db/routing";
import { documentsOfLead } from "../db/documents";
import { renewalsOf } from "../db/leads";
import { partnerOfferView } from "../domain/deals/offer-view";
import type { Lead } from "../domain/leads/types";
import { leadView } from "../domain/leads/view";
import { registerViewOf } from "./register-holdings";
import type { ViewContext } from "./view-context";

export async function presentLead(ctx: ViewContext, lead: Lead) {
  const [documents, uploadUrl, register] = await Promise.all([documentsOfLead(ctx.db, lead.id), ctx.links.hub(lead.id), registerViewOf(ctx.db, lead.id)]);
  const registerSources = { register: register.figures, registerAnswers: register.answers };
  if (!lead.submittedAt) return leadView(lead, { documents, uploadUrl, ...registerSources });
  // Only a funded lead can be renewed, and funding comes after submit: drafts have none to read.
  const renewals = lead.state === "funded" ? await renewalsOf(ctx.db, lead, lead.id) : [];
  const [routing, offers] = await Promise.all([findRouting(ctx.db, lead.id), currentOffersOfLead(ctx.db, lead.id)]);
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
