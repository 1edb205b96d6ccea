/**
 * The partner's side of routing: the offers on a lead, acceptance (the one
 * handover to the lender) and the sandbox helper that walks a sandbox lead
 * through its states.
 */
import type { Deps } from "../deps";
import { acceptOfferUpdate, closePresentedOffers, declineOfferUpdate, currentOffersOfLead, findOfferOfLead, offerInsertWhere, offersOfLeadWhere, otherOffersOfLeadWhere } from "../../db/deals/offers";
import { dealStatusOfAcceptance, findDealByRef } from "../../db/deals/deals";
import { findRouting, routingAcceptUpdate, routingDeclineUpdate, routingOutcomeUpdate } from "../../db/leads/routing";
import type { Statement } from "../../db/batch";
import { eventInsertWhere } from "../../db/guarded";
import { allOf, leadIn, moveLead, routingChanged } from "../../db/leads/progress";
import { leadRoutingRefresh, supersedeLeadOffers } from "../../db/leads/sandbox";
import type { NewEvent } from "../../db/webhooks/events";
import type { Scope } from "../../domain/identity/caller";
import { LEAD_STATES_OPEN_FOR_OFFERS, LEAD_STATES_OPEN_FOR_OUTCOME } from "../../domain/deals/status";
import { isAcceptable, type Offer } from "../../domain/deals/types";
import { allDeclined, dealOfferView, partnerOfferView } from "../../domain/deals/offer-view";
import type { Lead } from "../../domain/leads/types";
import { marketFor } from "../../domain/reference/markets";
import { OFFER_DECLINE_REASON_VALUES, type LeadState, type OfferDeclineReason } from "../../domain/reference/values";
import { randomToken } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { figuresForMatching } from "./figures";
import { leadFacts, simulatedOfferRows, type LeadMatcher } from "./routing";
import { leadEvent, requireLead } from "./leads";
import { runGuardedBatch } from "../../db/batch";
import { simulatedAccrualStatements } from "../commission/accrual";

const SANDBOX_NOTE = "Simulated offers computed from the matched products' price ranges for integration testing; no funding provider saw this lead.";
const LIVE_NOTE = "Current offers from the panel, described structurally; superseded terms are not listed.";

export async function leadOffers(deps: Deps, scope: Scope, leadId: string) {
  const { db } = deps;
  const lead = await requireLead(deps, scope, leadId);
  const offers = await currentOffersOfLead(db, lead.id);
  const sandbox = lead.environment === "sandbox";
  return { lead_id: lead.id, offers: offers.map(partnerOfferView), simulated: sandbox, note: sandbox ? SANDBOX_NOTE : LIVE_NOTE };
}

/** A lead event whose `state` is the one the event names (`lead.funded` → `funded`), as every lead event of this file has it. */
const partnerEvent = (lead: Lead, event: string, detail: Record<string, unknown> = {}): NewEvent => leadEvent(lead, event, { state: event.replace(/^lead\./, ""), ...detail });

const notAcceptable = (detail: string) => new Refusal("offer_not_acceptable", detail);

/**
 * Accepts an offer exactly once. The routing record's `accepted_offer_id` is
 * set by one conditional update (only while none is set and the offer is
 * presented and unexpired); everything else in the batch, including the
 * handover event to the lender, is guarded on that update's token. A caller
 * that lost the race, or repeats the call, reads the winner's result.
 */
export async function acceptOffer(deps: Deps, scope: Scope, leadId: string, offerId: string) {
  return acceptOfferOfLead(deps, await requireLead(deps, scope, leadId), offerId);
}

/** The acceptance itself, on a lead the caller has already resolved (the partner's, or the sandbox business behind a test deal). */
async function acceptOfferOfLead(deps: Deps, lead: Lead, offerId: string) {
  const offer = await findOfferOfLead(deps.db, lead.id, offerId);
  if (!offer) throw new Refusal("not_found", "No offer with that id on this lead.");
  return acceptFoundOffer(deps, lead, offer);
}

/**
 * The acceptance of an offer the caller has already resolved as the lead's (by the lead, or by the
 * test deal the sandbox business stands behind). `prelude` opens the same batch: the sandbox
 * business itself on a test deal's first simulation (see runGuardedBatch).
 */
export async function acceptFoundOffer(deps: Deps, lead: Lead, offer: Offer, prelude: readonly Statement[] = []) {
  const { db } = deps;
  const answer = { lead_id: lead.id, offer_id: offer.id, state: "accepted" as const, simulated: lead.environment === "sandbox" };
  const before = await findRouting(db, lead.id);
  if (before?.acceptedOfferId === offer.id) return answer;
  const at = deps.clock().toISOString();
  if (before?.acceptedOfferId) throw notAcceptable("Another offer on this lead was accepted; this one can no longer be.");
  if (!isAcceptable(offer, new Date(at))) {
    throw notAcceptable(offer.superseded ? "The offer was superseded by newer terms." : offer.state !== "presented" ? `The offer is ${offer.state}.` : "The offer has expired.");
  }
  if (!(LEAD_STATES_OPEN_FOR_OFFERS as readonly string[]).includes(lead.state)) throw notAcceptable(`The lead is ${lead.state}; no offer can be accepted.`);

  const token = randomToken(24);
  const won = routingChanged(lead.id, token);
  const accepted: Offer = { ...offer, state: "accepted" };
  const statements: Statement[] = [
    routingAcceptUpdate(db, lead.id, offer.id, LEAD_STATES_OPEN_FOR_OFFERS, token, at),
    acceptOfferUpdate(db, offer.id, won),
    closePresentedOffers(db, otherOffersOfLeadWhere(lead.id, offer.id), won),
    moveLead(db, lead.id, LEAD_STATES_OPEN_FOR_OFFERS, "offer_accepted", at, won),
    eventInsertWhere(db, partnerEvent(lead, "lead.offer_accepted", { offer: partnerOfferView(accepted) }), won, at),
  ];
  // The handover: a live lender's own offer reaches the lender; in the sandbox only a lender's own test deal does
  // (accepted by the sandbox business behind it); a partner's sandbox acceptance hands nothing to anyone.
  if (offer.dealRef && !offer.simulated) {
    const deal = await findDealByRef(db, offer.dealRef);
    if (deal && (lead.environment === "live" || deal.test)) {
      statements.push(
        dealStatusOfAcceptance(db, deal.ref, at, won),
        eventInsertWhere(
          db,
          { organisationId: deal.lenderOrganisationId, environment: deal.environment, api: "lender", event: "offer.accepted", subjectType: "deal", subjectId: deal.ref, test: deal.test, detail: { offer: dealOfferView(accepted) } },
          won,
          at,
        ),
      );
    }
  }
  const guardChanges = await runGuardedBatch(db, statements, prelude);
  if (guardChanges === 1) return answer;
  const after = await findRouting(db, lead.id);
  if (after?.acceptedOfferId === offer.id) return answer;
  throw notAcceptable("The offer can no longer be accepted (another offer was accepted, or it expired or was superseded meanwhile).");
}

/** What declining an offer answers: the offer as the partner sees it, and whether every current offer is now declined. */
interface OfferDecline {
  lead_id: string;
  offer: ReturnType<typeof partnerOfferView>;
  all_offers_declined: boolean;
  simulated: boolean;
}

const isOfferDeclineReason = (code: string): code is OfferDeclineReason => (OFFER_DECLINE_REASON_VALUES as readonly string[]).includes(code);

/**
 * The business's own "no" to a presented offer, from the partner API, the portal or
 * the hub. The routing row is the lock: one conditional update wins while the offer is presented and
 * current and the lead takes offers, and the offer's change, `lead.offer_declined` to the partner and
 * `offer.declined` to a live lender (or a lender's own test deal) are guarded on it. A repeat answers
 * the declined offer again with no second event; a declined offer can no longer be accepted (`offer_not_acceptable`).
 */
export async function declineOffer(deps: Deps, scope: Scope, leadId: string, offerId: string, reasonCode: string): Promise<OfferDecline> {
  return declineOfferOfLead(deps, await requireLead(deps, scope, leadId), offerId, reasonCode);
}

export async function declineOfferOfLead(deps: Deps, lead: Lead, offerId: string, reasonCode: string): Promise<OfferDecline> {
  const { db } = deps;
  if (!isOfferDeclineReason(reasonCode)) {
    throw new Refusal("unknown_code", `reason_code "${reasonCode}" is not an offer decline reason; one of: ${OFFER_DECLINE_REASON_VALUES.join(", ")} (GET /partner/v1/enums/offer-decline-reasons).`, { field: "reason_code" });
  }
  const offer = await findOfferOfLead(db, lead.id, offerId);
  if (!offer) throw new Refusal("not_found", "No offer with that id on this lead.");
  const simulated = lead.environment === "sandbox";
  const answer = async (): Promise<OfferDecline> => {
    const current = await currentOffersOfLead(db, lead.id);
    const shown = current.find((o) => o.id === offerId) ?? (await findOfferOfLead(db, lead.id, offerId))!;
    return { lead_id: lead.id, offer: partnerOfferView(shown), all_offers_declined: allDeclined(current), simulated };
  };
  if (offer.state === "declined") return answer();
  if (offer.superseded || offer.state !== "presented") {
    throw new Refusal("invalid_transition", offer.superseded ? "The offer was superseded by newer terms; decline the current one." : `The offer is ${offer.state}; only a presented offer can be declined.`);
  }
  if (!(LEAD_STATES_OPEN_FOR_OFFERS as readonly string[]).includes(lead.state)) throw new Refusal("invalid_transition", `The lead is ${lead.state}; its offers can no longer be declined.`);

  const at = deps.clock().toISOString();
  const token = randomToken(24);
  const won = routingChanged(lead.id, token);
  const declined: Offer = { ...offer, state: "declined", declinedReason: reasonCode, declinedAt: at };
  const others = (await currentOffersOfLead(db, lead.id)).filter((o) => o.id !== offer.id);
  const allOffersDeclined = allDeclined([...others, declined]);
  const statements: Statement[] = [
    routingDeclineUpdate(db, lead.id, offer.id, LEAD_STATES_OPEN_FOR_OFFERS, token),
    declineOfferUpdate(db, offer.id, reasonCode, at, won),
    // The lead's state does not move: the lender may still make new terms.
    eventInsertWhere(db, partnerEvent(lead, "lead.offer_declined", { state: lead.state, offer: partnerOfferView(declined), all_offers_declined: allOffersDeclined }), won, at),
  ];
  if (offer.dealRef && !offer.simulated) {
    const deal = await findDealByRef(db, offer.dealRef);
    if (deal && (lead.environment === "live" || deal.test)) {
      statements.push(
        eventInsertWhere(
          db,
          { organisationId: deal.lenderOrganisationId, environment: deal.environment, api: "lender", event: "offer.declined", subjectType: "deal", subjectId: deal.ref, test: deal.test, detail: { offer: dealOfferView(declined) } },
          won,
          at,
        ),
      );
    }
  }
  const guardChanges = await runGuardedBatch(db, statements);
  if (guardChanges === 1) return answer();
  const now = await findOfferOfLead(db, lead.id, offerId);
  if (now?.state === "declined") return answer();
  throw new Refusal("invalid_transition", "The offer can no longer be declined (it was accepted, closed or superseded meanwhile).");
}

export type SimulatedEvent = "offers" | "decline" | "fund";

const invalidMove = (lead: Lead, event: SimulatedEvent) =>
  new Refusal("invalid_transition", `A ${lead.state} lead cannot take the simulated event "${event}".`);

/**
 * The sandbox helper. `offers` presents a fresh set of simulated offers (the
 * current ones are superseded) on a matched or offers_available lead;
 * `decline` ends a lead that is still open; `fund` funds an accepted lead for
 * the accepted offer's amount. Each writes the lead events a live lead would.
 */
export async function simulateLeadEvent(deps: Deps, scope: Scope, leadId: string, event: SimulatedEvent, matcher: LeadMatcher): Promise<Lead> {
  const { db } = deps;
  if (scope.environment !== "sandbox") {
    throw new Refusal("environment_mismatch", "The sandbox helpers act on sandbox leads only; use a sandbox key.");
  }
  const lead = await requireLead(deps, scope, leadId);
  const at = deps.clock().toISOString();
  const token = randomToken(24);
  const won = routingChanged(lead.id, token);
  const statements: Statement[] = [];
  let target: LeadState;

  if (event === "offers") {
    if (!(LEAD_STATES_OPEN_FOR_OFFERS as readonly string[]).includes(lead.state)) throw invalidMove(lead, event);
    const market = marketFor(lead.country);
    const { figures, registry, documents } = await figuresForMatching(deps, lead, market);
    const match = await matcher(leadFacts(lead, market, figures, registry, documents));
    if (match.matchedProducts.length === 0) throw new Refusal("invalid_transition", "No panel product matches this lead any more, so no offer can be simulated.");
    target = "offers_available";
    statements.push(leadRoutingRefresh(db, lead.id, LEAD_STATES_OPEN_FOR_OFFERS, token, at), supersedeLeadOffers(db, lead.id, won, at));
    for (const offer of simulatedOfferRows(lead.id, match.matchedProducts, figures.amount, market.currency, at)) statements.push(offerInsertWhere(db, offer, won));
    if (lead.state === "matched") {
      statements.push(
        moveLead(db, lead.id, ["matched"], "offers_available", at, won),
        eventInsertWhere(db, partnerEvent(lead, "lead.offers_available"), allOf(won, leadIn(lead.id, "offers_available")), at),
      );
    }
  } else if (event === "decline") {
    if (!(LEAD_STATES_OPEN_FOR_OUTCOME as readonly string[]).includes(lead.state)) throw invalidMove(lead, event);
    target = "declined";
    statements.push(
      routingOutcomeUpdate(db, lead.id, "declined", null, token, at, leadIn(lead.id, lead.state)),
      closePresentedOffers(db, offersOfLeadWhere(lead.id), won),
      moveLead(db, lead.id, LEAD_STATES_OPEN_FOR_OUTCOME, "declined", at, won),
      // A sandbox lead has no deals, so no routed option to tell of.
      eventInsertWhere(db, partnerEvent(lead, "lead.declined", { outcomes: [] }), won, at),
    );
  } else {
    if (lead.state !== "offer_accepted") throw invalidMove(lead, event);
    const routing = await findRouting(db, lead.id);
    const accepted = routing?.acceptedOfferId ? await findOfferOfLead(db, lead.id, routing.acceptedOfferId) : null;
    if (!accepted) throw invalidMove(lead, event);
    target = "funded";
    statements.push(
      routingOutcomeUpdate(db, lead.id, "funded", accepted.amount, token, at, leadIn(lead.id, "offer_accepted")),
      moveLead(db, lead.id, ["offer_accepted"], "funded", at, won),
      eventInsertWhere(db, partnerEvent(lead, "lead.funded", { funding_outcome: { funded_at: at, funded_amount: accepted.amount } }), won, at),
    );
    // Sandbox commission accrues as live commission does, in the funding's batch (docs/commission.md, "Sandbox").
    statements.push(...(await simulatedAccrualStatements(deps, lead, accepted, routing!.acceptedAt, at, won)));
  }
  const guardChanges = await runGuardedBatch(db, statements);
  if (guardChanges !== 1) throw invalidMove(await requireLead(deps, scope, lead.id), event);
  const now = await requireLead(deps, scope, lead.id);
  if (now.state !== target) throw invalidMove(now, event);
  return now;
}
