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
import { acceptOffer, declineOfferOfLead } from "../leads/offers";
import { commissionDisclosureFor, recordDisclosureShown } from "../commission/disclosure";
import { offerStanding } from "../../domain/hub/offer-standing";
import type { CommissionDisclosure, DisclosureWhat, MoneyWords } from "../../domain/commission/disclosure";

/** The hub link opens one lead; it acts in that lead's own account and environment. */
const scopeOfLead = (lead: Lead): Scope => ({ organisationId: lead.organisationId, environment: lead.environment });



/** One offer of this lead; another lead's offer (or none) is `not_found` (the hub's plain page). */
async function hubOffer(deps: Deps, lead: Lead, offerId: string) {
  const { db } = deps;
  const offer = await findOfferOfLead(db, lead.id, offerId);
  if (!offer) throw new Refusal("not_found", "Not found.");
  return offer;
}

/**
 * One offer as the offer page shows it, with the commission disclosure while the offer can still be
 * accepted (docs/commission.md, "Disclosure"): the nature of the commission always, and the amount
 * too when the business asked "How much?". Each showing is recorded on the lead; a closed
 * application (read-only) or an offer no longer open shows and records nothing.
 */
export async function hubOfferWithDisclosure(deps: Deps, lead: Lead, offerId: string, asked: { amount: boolean; readOnly: boolean; money: MoneyWords }) {
  const offer = await hubOffer(deps, lead, offerId);
  if (asked.readOnly || offerStanding(offer, lead.state, deps.clock()) !== "open") return { offer, disclosures: [] };
  const whats: DisclosureWhat[] = asked.amount ? ["nature", "amount"] : ["nature"];
  const disclosures: CommissionDisclosure[] = [];
  for (const what of whats) {
    const shown = await commissionDisclosureFor(deps, lead, offer, what, asked.money);
    if (!shown) continue;
    await recordDisclosureShown(deps, lead, shown, "hub");
    disclosures.push(shown);
  }
  return { offer, disclosures };
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

/**
 * The business's own "no", through the partner API's `declineOfferOfLead` on the hub's lead:
 * the same rows and the same `lead.offer_declined` and `offer.declined`. The refusals name the form's
 * field: no reason chosen is `invalid_request` beside the reasons, an offer that cannot be declined is said at the offer.
 */
export async function declineHubOffer(deps: Deps, lead: Lead, offerId: string, reasonCode: string) {
  const offer = await hubOffer(deps, lead, offerId);
  if (offer.state === "declined") throw new Refusal("invalid_transition", "You have already declined this offer.", { field: "offer" });
  if (reasonCode === "") throw new Refusal("invalid_request", "Choose why you are declining the offer.", { field: "reason_code" });
  try {
    return await declineOfferOfLead(deps, lead, offer.id, reasonCode);
  } catch (error) {
    if (isRefusal(error, "unknown_code")) throw new Refusal("invalid_value", "Choose one of the reasons listed.", { field: "reason_code" });
    if (isRefusal(error, "invalid_transition")) throw new Refusal(error.code, error.detail, { field: "offer" });
    throw error;
  }
}
