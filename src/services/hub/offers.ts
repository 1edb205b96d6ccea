/**
 * The business's offers in the client hub: the lead's current offers (what
 * the partner's `GET /leads/{id}/offers` lists) and their acceptance. The
 * acceptance is the partner API's own `acceptOffer`, called with the lead's
 * scope, so a hub acceptance changes the lead, the offers and the deal and
 * fires `lead.offer_accepted` and `offer.accepted` exactly as the API does,
 * once (spec: live acceptance "runs the same path the business would use").
 */
import type { Deps } from "../deps";
import { findOfferOfLead } from "../../db/deals/offers";
import type { Scope } from "../../domain/identity/caller";
import type { Lead } from "../../domain/leads/types";
import { isRefusal, Refusal } from "../../lib/refusal";
import { acceptOffer } from "../leads/offers";

/** The hub link opens one lead; it acts in that lead's own account and environment. */
const scopeOfLead = (lead: Lead): Scope => ({ organisationId: lead.organisationId, environment: lead.environment });



/** One offer of this lead; another lead's offer (or none) is the hub's plain 404. */
export async function hubOffer(deps: Deps, lead: Lead, offerId: string) {
  const { db } = deps;
  const offer = await findOfferOfLead(db, lead.id, offerId);
  if (!offer) throw new Refusal("not_found", "Not found.");
  return offer;
}

/**
 * Accepts through `acceptOffer`. An offer this business already accepted is
 * told as such rather than accepted again (the API answers a repeat with the
 * same 200; a person pressing twice is better told plainly). Refusals carry
 * the API's own reason as the page's message.
 */
export async function acceptHubOffer(deps: Deps, lead: Lead, offerId: string) {
  const { db } = deps;
  const offer = await hubOffer(deps, lead, offerId);
  if (offer.state === "accepted") throw new Refusal("offer_not_acceptable", "You have already accepted this offer.", { field: "offer" });
  try {
    return await acceptOffer(deps, scopeOfLead(lead), lead.id, offer.id);
  } catch (error) {
    // The API's refusal names no field (the offer is the path); the hub's page shows it beside the offer.
    if (isRefusal(error, "offer_not_acceptable")) throw new Refusal(error.code, error.detail, { field: "offer" });
    throw error;
  }
}
