/**
 * The business's offers in the client hub: the lead's current offers (what
 * the partner's `GET /leads/{id}/offers` lists) and their acceptance. The
 * acceptance is the partner API's own `acceptOffer`, called with the lead's
 * scope, so a hub acceptance changes the lead, the offers and the deal and
 * fires `lead.offer_accepted` and `offer.accepted` exactly as the API does,
 * once (spec: live acceptance "runs the same path the business would use").
 */
import type { Database } from "../../db/client";
import { findOfferOfLead } from "../../db/deals/offers";
import type { Scope } from "../../domain/identity/caller";
import type { Lead } from "../../domain/leads/types";
import { ApiError } from "../../lib/errors";
import { HubRefusal } from "./client-hub";
import { acceptOffer } from "../leads/offers";

/** The hub link opens one lead; it acts in that lead's own account and environment. */
const scopeOfLead = (lead: Lead): Scope => ({ organisationId: lead.organisationId, environment: lead.environment });



/** One offer of this lead; another lead's offer (or none) is the hub's plain 404. */
export async function hubOffer(db: Database, lead: Lead, offerId: string) {
  const offer = await findOfferOfLead(db, lead.id, offerId);
  if (!offer) throw new HubRefusal(404, "Not found.");
  return offer;
}

/**
 * Accepts through `acceptOffer`. An offer this business already accepted is
 * told as such rather than accepted again (the API answers a repeat with the
 * same 200; a person pressing twice is better told plainly). Refusals carry
 * the API's own reason as the page's message.
 */
export async function acceptHubOffer(db: Database, lead: Lead, offerId: string) {
  const offer = await hubOffer(db, lead, offerId);
  if (offer.state === "accepted") throw new HubRefusal(409, "You have already accepted this offer.", "offer");
  try {
    return await acceptOffer(db, scopeOfLead(lead), lead.id, offer.id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") throw new HubRefusal(404, "Not found.");
    if (error instanceof ApiError && error.code === "offer_not_acceptable") throw new HubRefusal(409, error.detail, "offer");
    throw error;
  }
}
